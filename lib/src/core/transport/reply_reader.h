#pragma once
// Turning received bytes into replies with hiredis's redisReader (hiredis stays the RESP
// parser), plus the one thing it lacks: a cap on how large one reply may grow before it is
// complete, so a peer announcing "$999999999999" cannot make the client buffer gigabytes,
// and a header at any depth announcing more than the cap ("*2147483647" inside an array)
// fails as it arrives, before hiredis allocates for it (and before freeing what it
// allocated takes longer than the command's deadline).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "lockscope/reply.h"
#include "resp_frames.h"

struct redisReader;

namespace lockscope::transport {

class ReplyReader {
  public:
    explicit ReplyReader(std::size_t maxReplyBytes);
    ~ReplyReader();
    ReplyReader(ReplyReader&&) noexcept;
    ReplyReader& operator=(ReplyReader&&) noexcept;

    // Adds received bytes. Returns an error message (not RESP, reply over the cap) or nullopt.
    std::optional<std::string> feed(const char* data, std::size_t size);
    // Takes the next complete reply. nullopt: none yet; error set: the bytes are not RESP.
    std::optional<Reply> next(std::string& error);
    // Bytes received but not yet part of a complete reply.
    std::size_t buffered() const;
    bool receivedAnything() const { return firstByte_ >= 0; }
    // The first byte the peer ever sent (-1 before any): a TLS record type (0x15, 0x16)
    // on a plaintext connection means the port speaks TLS.
    int firstByte() const { return firstByte_; }
    void reset();

  private:
    std::optional<std::string> checkCap() const;
    std::optional<std::string> checkHeader(const RespHeader& header) const;

    redisReader* reader_ = nullptr;
    std::size_t maxReplyBytes_;
    RespFrames frames_;
    int firstByte_ = -1;
};

}  // namespace lockscope::transport
