#pragma once
// The streamed commands sent on a connection and not answered yet, grouped in the batches
// they were flushed in. Each batch ends with a marker, PING <nonce>, whose answer must be
// exactly that nonce in exactly that place: a reply missing, duplicated or no request's at
// all moves it, so a batch whose replies are out of step is always seen, even when every
// reply has a plausible shape. A batch's replies are checked (shapes and marker) before any
// is handed out; one that fails is sent again, once, on a fresh connection, with the
// batches after it (their requests are kept here for that).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/reply_shape.h"
#include "deadline.h"

namespace lockscope::transport {

class RequestsInFlight {
  public:
    struct Batch {
        std::vector<ReplyShape> shapes;  // one per command, in order
        std::string requests;            // the commands' RESP bytes, the marker's included
        std::string marker;              // the nonce PING must echo; empty: no marker sent
        bool mayWrite = false;
    };

    // `request` is the command's RESP bytes, as written.
    void add(const ReplyShape& shape, std::string_view request, bool isWrite);
    // The commands added since the last seal were flushed: they become a batch. With a
    // marker, returns the PING request to write after them. Nothing pending: no batch.
    std::string seal(bool withMarker);
    bool empty() const { return batches_.empty() && open_.shapes.empty(); }
    bool hasBatch() const { return !batches_.empty(); }
    const Batch& oldest() const { return batches_.front(); }
    void answered() { batches_.pop_front(); }
    // The requests of every batch, for sending them again in order.
    std::string allRequests() const;
    bool mayWrite() const;
    void clear();

  private:
    std::deque<Batch> batches_;
    Batch open_;  // added, not flushed yet
    std::uint64_t nextMarker_ = 0;
};

class Channel;

// The replies of one batch, read whole by one deadline (progress does not extend it).
struct BatchReplies {
    std::vector<Reply> replies;        // one per command, the marker's left out
    std::optional<std::string> wrong;  // set: the batch cannot be trusted, and why
    bool markerRefused = false;        // PING is denied or unknown here: send no markers
};
// Reads `batch`'s replies from `channel` and checks them. I/O errors throw.
BatchReplies readBatch(Channel& channel, const RequestsInFlight::Batch& batch,
                       const Deadline& deadline);

}  // namespace lockscope::transport
