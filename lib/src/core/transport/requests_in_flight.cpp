#include "requests_in_flight.h"

#include <algorithm>
#include <utility>

#include "channel.h"
#include "core/resp_request.h"
#include "lockscope/errors.h"

namespace lockscope::transport {

void RequestsInFlight::add(const ReplyShape& shape, std::string_view request, bool isWrite) {
    open_.shapes.push_back(shape);
    open_.requests.append(request);
    open_.mayWrite = open_.mayWrite || isWrite;
}

std::string RequestsInFlight::seal(bool withMarker) {
    if (open_.shapes.empty()) return {};
    std::string ping;
    if (withMarker) {
        open_.marker = "lockscope-in-step-" + std::to_string(++nextMarker_);
        const std::string_view argv[] = {"PING", open_.marker};
        appendRespRequest(ping, argv);
        open_.requests += ping;
    }
    batches_.push_back(std::exchange(open_, {}));
    return ping;
}

std::string RequestsInFlight::allRequests() const {
    std::string out;
    for (const Batch& b : batches_) out += b.requests;
    return out;
}

bool RequestsInFlight::mayWrite() const {
    return open_.mayWrite ||
           std::any_of(batches_.begin(), batches_.end(), [](const Batch& b) { return b.mayWrite; });
}

void RequestsInFlight::clear() {
    batches_.clear();
    open_ = {};
}

namespace {

// PING may be refused (an ACL without it) or renamed: then no marker can be had.
bool refusesPing(const Reply& r) {
    if (!r.isError()) return false;
    const ServerErrorCode code = serverErrorCodeOf(r.text());
    return code == ServerErrorCode::NoPerm || code == ServerErrorCode::UnknownCommand;
}

// The server refused every command of the batch, PING too (NOAUTH, BUSY, LOADING...): the
// callers judge those errors; the marker cannot vouch for anything this time.
bool pingRefusedThisTime(const Reply& r) {
    if (!r.isError()) return false;
    switch (serverErrorCodeOf(r.text())) {
        case ServerErrorCode::NoAuth:
        case ServerErrorCode::WrongPass:
        case ServerErrorCode::Busy:
        case ServerErrorCode::Loading:
        case ServerErrorCode::MasterDown:
        case ServerErrorCode::ClusterDown:
            return true;
        default:
            return false;
    }
}

}  // namespace

BatchReplies readBatch(Channel& channel, const RequestsInFlight::Batch& batch,
                       const Deadline& deadline) {
    BatchReplies out;
    out.replies.reserve(batch.shapes.size());
    for (const ReplyShape& shape : batch.shapes) {
        out.replies.push_back(channel.readReply(deadline, "pipeline read"));
        if (out.wrong) continue;  // read on to the marker: the stream stays whole
        if (auto misfit = lockscope::misfit(shape, out.replies.back()))
            out.wrong = std::string(shape.name ? shape.name : "a command") + " (reply " +
                        std::to_string(out.replies.size()) + " of " +
                        std::to_string(batch.shapes.size()) + "): " + *misfit;
    }
    if (batch.marker.empty()) return out;
    Reply marker = channel.readReply(deadline, "pipeline read");
    if (marker.view().isString() && marker.text() == batch.marker) return out;
    if (refusesPing(marker) && !out.wrong) {
        out.markerRefused = true;
        return out;
    }
    if (pingRefusedThisTime(marker) && !out.wrong) return out;
    if (!out.wrong)
        out.wrong = "the replies are out of step with the requests (" + marker.summary() +
                    " where the batch's closing PING was due: a reply came twice, went missing "
                    "or answered no request)";
    return out;
}

}  // namespace lockscope::transport
