#pragma once
// RESP replies, owned by RAII and read through a small non-owning view. The parser's own
// reply type stays inside the library: a Reply is made only by a connection, and users read
// it through the accessors below.
//
// Thread rules: a Reply is a value (movable, not copyable) that one thread at a time may
// read; a ReplyView is valid while the Reply it looks into lives. A moved-from Reply reads
// as a nil reply.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace lockscope {

namespace detail {
struct ReplyNode;    // opaque: one parsed reply inside the library (never defined for users)
struct ReplyAccess;  // the library's way to wrap and read parsed replies (lib/src/core)
}  // namespace detail

enum class ReplyType { String, Array, Integer, Nil, Status, Error };

// A read-only look at one reply or one element of an array reply. Valid while the
// owning Reply lives. A default-constructed view reads as nil.
class ReplyView {
  public:
    ReplyView() = default;

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
    ReplyView operator[](std::size_t i) const;  // a nil view past the end

    // A one-line human summary for logs: "OK", "(integer) 3", "(nil)", "\"abc…\" (12 B)".
    std::string summary(std::size_t maxText = 40) const;

  private:
    friend struct detail::ReplyAccess;
    explicit ReplyView(const detail::ReplyNode* node) : node_(node) {}

    const detail::ReplyNode* node_ = nullptr;
};

class Reply {
  public:
    Reply() = default;  // a nil reply

    ReplyView view() const;
    ReplyType type() const { return view().type(); }
    bool isNil() const { return view().isNil(); }
    bool isError() const { return view().isError(); }
    std::int64_t integer() const { return view().integer(); }
    std::string_view text() const { return view().text(); }
    std::size_t size() const { return view().size(); }
    ReplyView operator[](std::size_t i) const { return view()[i]; }
    std::string summary() const { return view().summary(); }

  private:
    friend struct detail::ReplyAccess;
    struct Free {
        void operator()(detail::ReplyNode* node) const noexcept;
    };
    explicit Reply(detail::ReplyNode* owned) : node_(owned) {}

    std::unique_ptr<detail::ReplyNode, Free> node_;
};

}  // namespace lockscope
