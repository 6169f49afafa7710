// The streaming path of a Connection: commands sent one by one, flushed
// together (each batch closed by a PING <nonce> that must come back in its
// place) and their replies received as they come, checked a batch at a time.

#include <iterator>

#include "command_policy.h"
#include "command_text.h"
#include "connection_state.h"
#include "reply_shape.h"
#include "resp_request.h"

namespace lockscope {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

using command_text::describe;
using command_text::isSubscribe;

void Connection::State::notifyStreamed(const Reply& reply) {
    if (untrackedAhead > 0) {
        --untrackedAhead;
        return;
    }
    if (streamed.empty()) return;
    StreamedCommand sent = std::move(streamed.front());
    streamed.pop_front();
    if (!observer || sent.command.empty()) return;
    auto latency = sent.flushed ? Clock::now() - sent.flushedAt : Clock::duration{0};
    observer(CommandEvent{std::move(sent.command), reply.summary(),
                          std::chrono::duration_cast<std::chrono::microseconds>(latency)});
}

Reply Connection::State::nextStreamed() {
    if (ready.empty()) {
        if (subscribed || !inFlight.hasBatch())
            return guardedRead([&] { return channel.readReply(commandDeadline(), "read"); });
        readOldestBatch();
    }
    Reply reply = std::move(ready.front());
    ready.pop_front();
    return reply;
}

void Connection::State::readOldestBatch() {
    for (bool again = false;; again = true) {
        auto got = guardedRead(
            [&] { return transport::readBatch(channel, inFlight.oldest(), commandDeadline()); });
        if (got.markerRefused) markers = false;
        if (!got.wrong) {
            ready.assign(std::make_move_iterator(got.replies.begin()),
                         std::make_move_iterator(got.replies.end()));
            inFlight.answered();
            return;
        }
        resendOrThrow(malformedMessage("pipeline read", *got.wrong), again);
    }
}

void Connection::State::resendOrThrow(const std::string& message, bool again) {
    const bool mayWrite = inFlight.mayWrite();
    if (again || mayWrite) {
        channel.close();
        dropStream();
        if (mayWrite) throwOutcomeUnknown(MalformedReplyError(message));
        throw MalformedReplyError(message);
    }
    auto keep = std::move(inFlight);
    auto keepStreamed = std::move(streamed);
    const std::size_t keepUntracked = untrackedAhead;
    connect();  // drops the stream's bookkeeping, kept aside above
    inFlight = std::move(keep);
    streamed = std::move(keepStreamed);
    untrackedAhead = keepUntracked;
    channel.outgoing() = inFlight.allRequests();
}
void Connection::send(Argv argv) {
    State& s = live();
    s.checkAllowed(argv);
    // Bytes already waiting (a reply that came twice) are not dropped here: they would hide
    // a server that closed the idle socket (a restart) from the caller, and the batch's
    // closing PING finds them out of step anyway.
    if (!s.channel.isOpen()) s.connect();
    std::string& out = s.channel.outgoing();
    const std::size_t before = out.size();
    appendRespRequest(out, argv);
    ++s.commandsSent;
    s.inFlight.add(replyShapeOf(argv), std::string_view(out).substr(before), !isReadOnlySafe(argv));

    if (isSubscribe(argv)) s.subscribed = true;
    if (s.observer)
        s.streamed.push_back({describe(argv), {}, false});
    else if (s.streamed.empty())
        ++s.untrackedAhead;
    else
        s.streamed.push_back({});  // the observer was removed with replies pending
}

void Connection::flush() {
    State& s = live();
    if (!s.channel.isOpen()) return;
    if (!s.streamed.empty()) {
        // Latency counts from here: the time the command spent queued locally is ours.
        auto now = Clock::now();
        for (auto it = s.streamed.rbegin(); it != s.streamed.rend() && !it->flushed; ++it)
            it->flushedAt = now, it->flushed = true;
    }
    s.channel.outgoing() += s.inFlight.seal(s.markers && !s.subscribed);
    try {
        s.channel.flush(s.commandDeadline(), "pipeline write");
    } catch (const IoError& e) {
        bool hadWrite = s.inFlight.mayWrite();
        s.dropStream();
        if (hadWrite && e.kind() != ErrorKind::Cancelled) throwOutcomeUnknown(e);
        throw;
    }
}

Reply Connection::receive() {
    State& s = live();
    if (!s.channel.isOpen())
        throw ConnectionLostError("pipeline read on " + s.where() +
                                  ": the connection was reset, so no reply is pending");
    if (!s.channel.outgoing().empty()) flush();  // a reply cannot come for a command not sent
    Reply reply = s.nextStreamed();
    s.notifyStreamed(reply);
    return reply;
}

bool Connection::waitForReply(std::chrono::milliseconds timeout) {
    State& s = live();
    if (!s.channel.isOpen())
        throw ConnectionLostError("wait on " + s.where() + ": the connection was reset");
    return !s.ready.empty() || s.channel.waitReadable(timeout);
}
}  // namespace lockscope
