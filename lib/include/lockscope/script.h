#pragma once
// A Lua script with its SHA1, so it can be sent as EVALSHA and fall back to EVAL.

#include <string>
#include <string_view>

namespace lockscope {

class Script {
  public:
    explicit Script(std::string source);
    const std::string& source() const { return source_; }
    const std::string& sha1() const { return sha1_; }  // 40 lowercase hex digits

  private:
    std::string source_;
    std::string sha1_;
};

// SHA-1 of bytes as 40 lowercase hex digits (what Redis uses to name cached scripts).
std::string sha1Hex(std::string_view bytes);

}  // namespace lockscope
