#include "reply_reader.h"

#include <hiredis/hiredis.h>

#include <utility>

#include "core/reply_access.h"

namespace lockscope::transport {
namespace {

// hiredis frees its read buffer whenever more than 16 KB of it is unused and grows it again
// for the next pipeline; a scan's replies refill it every round trip, so keep 1 MB.
constexpr std::size_t kReaderBufferKeep = 1 << 20;

std::string mib(std::size_t bytes) {
    return std::to_string(bytes / (std::size_t{1024} * 1024)) + " MiB";
}

redisReader* makeReader() {
    redisReader* r = redisReaderCreate();
    if (r) r->maxbuf = kReaderBufferKeep;
    return r;
}

}  // namespace

ReplyReader::ReplyReader(std::size_t maxReplyBytes)
    : reader_(makeReader()),
      maxReplyBytes_(maxReplyBytes),
      frames_([this](const RespHeader& h) { return checkHeader(h); }) {}

ReplyReader::~ReplyReader() {
    if (reader_) redisReaderFree(reader_);
}

// The header check captures `this`: a moved reader starts a fresh walk of its own (moves
// happen only before any byte arrives, when Channel is built).
ReplyReader::ReplyReader(ReplyReader&& o) noexcept
    : reader_(std::exchange(o.reader_, nullptr)),
      maxReplyBytes_(o.maxReplyBytes_),
      frames_([this](const RespHeader& h) { return checkHeader(h); }),
      firstByte_(o.firstByte_) {}

ReplyReader& ReplyReader::operator=(ReplyReader&& o) noexcept {
    if (this != &o) {
        if (reader_) redisReaderFree(reader_);
        reader_ = std::exchange(o.reader_, nullptr);
        maxReplyBytes_ = o.maxReplyBytes_;
        frames_.reset();
        firstByte_ = o.firstByte_;
    }
    return *this;
}

void ReplyReader::reset() {
    if (reader_) redisReaderFree(reader_);
    reader_ = makeReader();
    frames_.reset();
    firstByte_ = -1;
}

std::size_t ReplyReader::buffered() const {
    return reader_ && reader_->buf ? reader_->len - reader_->pos : 0;
}

std::optional<std::string> ReplyReader::feed(const char* data, std::size_t size) {
    if (!reader_) return "out of memory for the reply reader";
    if (size == 0) return std::nullopt;
    if (firstByte_ < 0) firstByte_ = static_cast<unsigned char>(data[0]);
    // The headers are judged before hiredis parses them (it parses only in next()).
    if (auto refused = frames_.feed(data, size)) return refused;
    if (redisReaderFeed(reader_, data, size) != REDIS_OK)
        return std::string("cannot buffer the reply: ") + reader_->errstr;
    return checkCap();
}

// Bytes waiting for one reply past the cap: a reply that grows without announcing it.
std::optional<std::string> ReplyReader::checkCap() const {
    if (buffered() > maxReplyBytes_)
        return "a reply grew past the " + mib(maxReplyBytes_) +
               " reply size cap before it was complete";
    return std::nullopt;
}

// A header at any depth that announces more than the cap can hold fails at the header: a
// value longer than the cap, or more elements than the cap's bytes could carry (each
// element takes at least 3 bytes, "+\r\n").
std::optional<std::string> ReplyReader::checkHeader(const RespHeader& h) const {
    const auto cap = static_cast<std::int64_t>(maxReplyBytes_);
    const std::string where = h.depth == 0 ? "" : " at depth " + std::to_string(h.depth);
    if (h.type == '$' || h.type == '!' || h.type == '=') {
        if (h.length > cap)
            return "the server announced a " + std::to_string(h.length) + "-byte value" + where +
                   ", over the " + mib(maxReplyBytes_) + " reply size cap";
        return std::nullopt;
    }
    constexpr std::int64_t kSmallestElement = 3;
    const std::int64_t elements = h.type == '%' ? h.length * 2 : h.length;
    if (elements > cap / kSmallestElement)
        return "the server announced an array of " + std::to_string(h.length) + " elements" +
               where + ", more than the " + mib(maxReplyBytes_) + " reply size cap can hold";
    return std::nullopt;
}

std::optional<Reply> ReplyReader::next(std::string& error) {
    void* raw = nullptr;
    if (redisReaderGetReply(reader_, &raw) != REDIS_OK) {
        error = reader_->errstr;
        return std::nullopt;
    }
    if (!raw) return std::nullopt;
    return detail::ReplyAccess::adopt(static_cast<redisReply*>(raw));
}

}  // namespace lockscope::transport
