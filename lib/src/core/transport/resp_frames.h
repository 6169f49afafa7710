#pragma once
// Walking a RESP byte stream without building replies: where each header is (a bulk
// string's length, an array's element count, at any nesting depth) and where each complete
// top-level reply ends. The reply reader uses it to refuse a header that announces more
// than the reply cap before hiredis allocates for it; the fault proxy uses it to tell one
// reply from the next. Incremental: bytes may arrive split anywhere.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::transport {

struct RespHeader {
    char type;            // '$' bulk, '*' array, '%' map... (RESP2 and RESP3 types)
    std::int64_t length;  // announced bytes or elements; -1 for a nil
    std::size_t depth;    // 0 for a top-level reply
};

class RespFrames {
  public:
    // Called for each length header; a returned message stops the walk as an error.
    using HeaderCheck = std::function<std::optional<std::string>(const RespHeader&)>;

    explicit RespFrames(HeaderCheck check = {}) : check_(std::move(check)) {}

    // Walks `size` more bytes. Each complete top-level reply's end (an offset into these
    // bytes, one past its last byte) goes to `ends` when given. Returns an error message
    // when the bytes are not RESP or a header check refused a header; the walk then stays
    // failed until reset().
    std::optional<std::string> feed(const char* data, std::size_t size,
                                    std::vector<std::size_t>* ends = nullptr);
    // True between replies (nothing of a next reply seen yet).
    bool atBoundary() const { return open_.empty() && line_.empty() && bulkLeft_ == 0; }
    void reset();

  private:
    std::optional<std::string> takeLine(std::size_t& completed);
    void completeElement(std::size_t& completed);

    HeaderCheck check_;
    std::string line_;                // the header line so far (without CR LF)
    std::int64_t bulkLeft_ = 0;       // payload bytes plus CR LF still to skip
    std::vector<std::int64_t> open_;  // elements still due in each open aggregate
    std::optional<std::string> failed_;
};

}  // namespace lockscope::transport
