#pragma once
// RESP replies from hiredis, owned by RAII and read through a small non-owning view.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct redisReply;

namespace lockscope {

enum class ReplyType { String, Array, Integer, Nil, Status, Error };

// A read-only look at one reply or one element of an array reply. Valid while the
// owning Reply lives.
class ReplyView {
  public:
    explicit ReplyView(const redisReply* reply) : reply_(reply) {}

    ReplyType type() const;
    bool isNil() const { return type() == ReplyType::Nil; }
    bool isError() const { return type() == ReplyType::Error; }
    bool isInteger() const { return type() == ReplyType::Integer; }
    bool isString() const { return type() == ReplyType::String; }
    bool isStatus() const { return type() == ReplyType::Status; }
    bool isArray() const { return type() == ReplyType::Array; }

    std::int64_t integer() const;   // 0 unless Integer
    std::string_view text() const;  // String, Status and Error payloads; empty otherwise
    std::size_t size() const;       // number of elements of an Array, 0 otherwise
    ReplyView operator[](std::size_t i) const;

    // A one-line human summary for logs: "OK", "(integer) 3", "(nil)", "\"abc…\" (12 B)".
    std::string summary(std::size_t maxText = 40) const;

  private:
    const redisReply* reply_;
};

class Reply {
  public:
    struct Free {
        void operator()(redisReply* r) const noexcept;
    };

    Reply() = default;
    explicit Reply(redisReply* owned) : reply_(owned) {}

    ReplyView view() const { return ReplyView(reply_.get()); }
    ReplyType type() const { return view().type(); }
    bool isNil() const { return view().isNil(); }
    bool isError() const { return view().isError(); }
    std::int64_t integer() const { return view().integer(); }
    std::string_view text() const { return view().text(); }
    std::size_t size() const { return view().size(); }
    ReplyView operator[](std::size_t i) const { return view()[i]; }
    std::string summary() const { return view().summary(); }

  private:
    std::unique_ptr<redisReply, Free> reply_;
};

}  // namespace lockscope
