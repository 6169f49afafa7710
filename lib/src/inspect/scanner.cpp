#include "lockscope/inspect/scanner.h"

#include <charconv>
#include <deque>
#include <unordered_set>

#include "batch_annotator.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/pacer.h"

namespace lockscope::inspect {
namespace {

// SCAN walks the table in reverse-binary cursor order, so the reversed cursor over the
// full 64 bits is the share of the table already visited.
double cursorFraction(std::string_view cursor) {
    std::uint64_t c = 0;
    std::from_chars(cursor.data(), cursor.data() + cursor.size(), c);
    std::uint64_t r = 0;
    for (int i = 0; i < 64; ++i, c >>= 1) r = (r << 1) | (c & 1);
    return static_cast<double>(r) / 18446744073709551616.0;
}

template <class T>
void append(std::vector<T>& to, std::vector<T>&& from) {
    if (to.empty())
        to = std::move(from);
    else
        to.insert(to.end(), std::make_move_iterator(from.begin()),
                  std::make_move_iterator(from.end()));
    from.clear();
}

}  // namespace

Scanner::Scanner(Connection& connection, ScanOptions options)
    : connection_(connection),
      options_(std::move(options)),
      instance_(std::make_shared<const std::string>(connection.endpoint().display())) {
    validate(options_);
    annotator_ = std::make_unique<BatchAnnotator>(options_, instance_);
}

Scanner::~Scanner() = default;

const std::vector<std::string>& Scanner::notes() const {
    return annotator_->notes();
}

ScanSummary Scanner::run(const BatchCallback& onBatch, std::stop_token stop) {
    struct Round {
        bool scan = false;
        std::vector<BatchAnnotator::Sent> stages;
        SteadyClock::time_point sentAt;
    };
    const auto started = SteadyClock::now();
    const Pacer pacer(options_.maxLoad);
    const bool overlap = !pacer.active();
    const std::string count = std::to_string(options_.count);

    ScanSummary summary;
    ScanProgress& progress = summary.progress;
    progress.patterns = options_.patterns.size();
    std::string cursor = "0";
    bool scanDone = false;
    std::vector<std::string> pendingMain, pendingFollow;
    std::unordered_set<std::string> seen;  // only when several patterns may overlap
    // A real SCAN never returns a cursor twice in one pass (the reversed cursor only grows):
    // one that comes back means a server or proxy that would keep the scan going forever.
    std::unordered_set<std::string> cursorsSeen;
    const bool dedupe = options_.patterns.size() > 1;
    std::deque<Round> inflight;

    auto compose = [&](bool withScan) {
        Round r;
        r.sentAt = SteadyClock::now();
        if (withScan && !scanDone) {
            const auto& pattern = options_.patterns[progress.pattern];
            std::string_view argv[] = {"SCAN", cursor, "MATCH", pattern, "COUNT", count};
            connection_.send(argv);
            r.scan = true;
            // The SCAN goes out alone first, so the server starts on it while the reads
            // of the previous page are still being formatted here.
            if (!pendingMain.empty() || !pendingFollow.empty()) connection_.flush();
        }
        if (!pendingMain.empty())
            r.stages.push_back(annotator_->sendMain(connection_, std::move(pendingMain)));
        if (!pendingFollow.empty())
            r.stages.push_back(annotator_->sendFollowUp(connection_, std::move(pendingFollow)));
        pendingMain.clear();
        pendingFollow.clear();
        if (!r.scan && r.stages.empty()) return;
        connection_.flush();
        ++progress.rounds;
        inflight.push_back(std::move(r));
    };
    auto readScanReply = [&] {
        Reply page = connection_.receive();
        if (page.isError()) throwReplyError("SCAN", *instance_, page.text());
        if (!page.view().isArray() || page.size() != 2 || !page[1].isArray())
            throw ProtocolError("SCAN on " + *instance_ + ": the reply is not [cursor, keys]");
        cursor = std::string(page[0].text());
        if (cursor != "0" && !cursorsSeen.insert(cursor).second) {
            dropPendingReplies();
            throw ProtocolError("SCAN on " + *instance_ + ": the cursor " + cursor.substr(0, 24) +
                                " came back for " + options_.patterns[progress.pattern] +
                                " after " + std::to_string(progress.keysSeen) +
                                " keys, so the scan would never end (a server or proxy that "
                                "does not walk the keyspace); stopped here");
        }
        if (cursor == "0") cursorsSeen.clear();
        ReplyView keys = page[1];
        progress.keysSeen += keys.size();
        pendingMain.reserve(pendingMain.size() + keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) {
            std::string key(keys[i].text());
            if (dedupe && !seen.insert(key).second) continue;
            pendingMain.push_back(std::move(key));
        }
        if (cursor == "0") {
            if (++progress.pattern >= options_.patterns.size()) {
                scanDone = true;
                progress.pattern = options_.patterns.size() - 1;
            }
        }
        progress.fraction = scanDone
                                ? 1.0
                                : (static_cast<double>(progress.pattern) + cursorFraction(cursor)) /
                                      static_cast<double>(progress.patterns);
    };

    auto checkDeadline = [&] {
        if (options_.deadline.count() <= 0 || SteadyClock::now() - started < options_.deadline)
            return;
        dropPendingReplies();
        throw TimeoutError("the scan of " + *instance_ + " passed its deadline of " +
                           std::to_string(options_.deadline.count()) + " ms after " +
                           std::to_string(progress.keysSeen) + " keys; stopped here");
    };

    compose(true);
    try {
        while (!inflight.empty()) {
            checkDeadline();
            Round round = std::move(inflight.front());
            inflight.pop_front();
            if (round.scan) readScanReply();
            bool stopping = stop.stop_requested();
            if (overlap && !stopping) compose(true);
            BatchAnnotator::Output out;
            for (auto& stage : round.stages) annotator_->receive(connection_, stage, out);
            progress.vanished += out.vanished.size();
            progress.locks += out.records.size();
            append(pendingMain, std::move(out.retryMain));
            append(pendingFollow, std::move(out.followUps));
            append(pendingFollow, std::move(out.retryFollow));
            progress.elapsed =
                std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - started);
            if (!out.records.empty() || round.scan) {
                ScanBatch batch{std::move(out.records), progress};
                if (onBatch) onBatch(batch);
            }
            if (stopping || stop.stop_requested()) {
                summary.cancelled = true;
                continue;  // drain what is in flight, send nothing more
            }
            // The rest ends at the deadline, where the loop's check stops the scan.
            const auto restUntil = options_.deadline.count() > 0 ? started + options_.deadline
                                                                 : SteadyClock::time_point::max();
            if (!overlap && !pacer.rest(SteadyClock::now() - round.sentAt, stop, restUntil)) {
                summary.cancelled = true;
                continue;
            }
            if (inflight.empty()) compose(true);
        }
    } catch (const IoError&) {
        throw;  // the connection already dropped its socket, and every pending reply with it
    } catch (...) {
        // Replies may still be in flight (a denied command, or the callback threw): a new
        // socket drops them, so the next command cannot read a stale reply.
        dropPendingReplies();
        throw;
    }
    progress.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - started);
    summary.notes = annotator_->notes();
    return summary;
}

void Scanner::dropPendingReplies() noexcept {
    try {
        connection_.reconnect();
    } catch (...) {
        // The connection stays without a socket and connects again on its next command.
    }
}

std::vector<LockRecord> Scanner::collect(ScanSummary* summary, std::stop_token stop) {
    std::vector<LockRecord> all;
    ScanSummary s = run([&](ScanBatch& b) { append(all, std::move(b.records)); }, stop);
    if (summary) *summary = std::move(s);
    return all;
}

std::vector<LockRecord> Scanner::readKeys(const std::vector<std::string>& keys,
                                          std::vector<std::string>* vanished,
                                          const std::vector<ValueType>* types) {
    std::vector<LockRecord> records;
    std::vector<std::string> main, follow, typed;
    std::vector<ValueType> typedAs;
    if (types && types->size() == keys.size()) {
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if ((*types)[i] == ValueType::String) {
                main.push_back(keys[i]);
            } else {
                typed.push_back(keys[i]);
                typedAs.push_back((*types)[i]);
            }
        }
    } else {
        main.assign(keys.begin(), keys.end());
    }
    if (!typed.empty()) {  // bounded batches, like the main stage's
        BatchAnnotator::Output out;
        const std::size_t step = static_cast<std::size_t>(options_.count);
        for (std::size_t from = 0; from < typed.size(); from += step) {
            const std::size_t to = std::min(typed.size(), from + step);
            auto first = static_cast<std::ptrdiff_t>(from), last = static_cast<std::ptrdiff_t>(to);
            BatchAnnotator::Sent sent = annotator_->sendFollowUp(
                connection_, std::vector<std::string>(typed.begin() + first, typed.begin() + last),
                std::vector<ValueType>(typedAs.begin() + first, typedAs.begin() + last));
            connection_.flush();
            try {
                annotator_->receive(connection_, sent, out);
            } catch (const IoError&) {
                throw;
            } catch (...) {
                dropPendingReplies();
                throw;
            }
        }
        append(records, std::move(out.records));
        if (vanished) append(*vanished, std::move(out.vanished));
        append(main, std::move(out.retryMain));
        append(follow, std::move(out.followUps));
        append(follow, std::move(out.retryFollow));
    }
    for (int pass = 0; pass < 4 && !(main.empty() && follow.empty()); ++pass) {
        std::vector<BatchAnnotator::Sent> stages;
        // Bounded batches: one MGET never names more than COUNT keys.
        const std::size_t step = static_cast<std::size_t>(options_.count);
        for (std::size_t from = 0; from < main.size(); from += step) {
            std::vector<std::string> part(
                main.begin() + static_cast<std::ptrdiff_t>(from),
                main.begin() + static_cast<std::ptrdiff_t>(std::min(main.size(), from + step)));
            stages.push_back(annotator_->sendMain(connection_, std::move(part)));
        }
        if (!follow.empty())
            stages.push_back(annotator_->sendFollowUp(connection_, std::move(follow)));
        main.clear();
        follow.clear();
        connection_.flush();
        BatchAnnotator::Output out;
        try {
            for (auto& stage : stages) annotator_->receive(connection_, stage, out);
        } catch (const IoError&) {
            throw;
        } catch (...) {
            dropPendingReplies();
            throw;
        }
        append(records, std::move(out.records));
        if (vanished) append(*vanished, std::move(out.vanished));
        main = std::move(out.retryMain);
        append(follow, std::move(out.followUps));
        append(follow, std::move(out.retryFollow));
    }
    return records;
}

}  // namespace lockscope::inspect
