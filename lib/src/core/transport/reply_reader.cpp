#include "reply_reader.h"

#include <hiredis/hiredis.h>

#include <charconv>
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
    : reader_(makeReader()), maxReplyBytes_(maxReplyBytes) {}

ReplyReader::~ReplyReader() {
    if (reader_) redisReaderFree(reader_);
}

ReplyReader::ReplyReader(ReplyReader&& o) noexcept
    : reader_(std::exchange(o.reader_, nullptr)),
      maxReplyBytes_(o.maxReplyBytes_),
      firstByte_(o.firstByte_) {}

ReplyReader& ReplyReader::operator=(ReplyReader&& o) noexcept {
    if (this != &o) {
        if (reader_) redisReaderFree(reader_);
        reader_ = std::exchange(o.reader_, nullptr);
        maxReplyBytes_ = o.maxReplyBytes_;
        firstByte_ = o.firstByte_;
    }
    return *this;
}

void ReplyReader::reset() {
    if (reader_) redisReaderFree(reader_);
    reader_ = makeReader();
    firstByte_ = -1;
}

std::size_t ReplyReader::buffered() const {
    return reader_ && reader_->buf ? reader_->len - reader_->pos : 0;
}

std::optional<std::string> ReplyReader::feed(const char* data, std::size_t size) {
    if (!reader_) return "out of memory for the reply reader";
    if (size == 0) return std::nullopt;
    if (firstByte_ < 0) firstByte_ = static_cast<unsigned char>(data[0]);
    if (redisReaderFeed(reader_, data, size) != REDIS_OK)
        return std::string("cannot buffer the reply: ") + reader_->errstr;
    return checkCap();
}

// Two checks: a top-level bulk string whose announced length is over the cap fails as soon
// as its header arrives; anything else fails once that many bytes wait for one reply.
std::optional<std::string> ReplyReader::checkCap() const {
    std::size_t waiting = buffered();
    if (waiting > maxReplyBytes_)
        return "a reply grew past the " + mib(maxReplyBytes_) +
               " reply size cap before it was complete";
    const char* head = reader_->buf + reader_->pos;
    if (waiting > 1 && head[0] == '$') {
        std::string_view header(head + 1, std::min<std::size_t>(waiting - 1, 24));
        auto end = header.find('\r');
        if (end != std::string_view::npos) {
            unsigned long long announced = 0;
            auto [ptr, ec] = std::from_chars(header.data(), header.data() + end, announced);
            if (ec == std::errc::result_out_of_range ||
                (ec == std::errc() && announced > maxReplyBytes_))
                return "the server announced a " + std::string(header.substr(0, end)) +
                       "-byte value, over the " + mib(maxReplyBytes_) + " reply size cap";
        }
    }
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
