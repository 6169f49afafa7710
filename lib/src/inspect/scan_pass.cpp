#include "scan_pass.h"

#include <charconv>

#include "lockscope/errors.h"
#include "lockscope/inspect/discover.h"
#include "move_append.h"

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

}  // namespace

ScanPass::ScanPass(Connection& connection, const ScanOptions& options, BatchAnnotator& annotator,
                   const std::string& instance, std::function<void()> dropPendingReplies)
    : connection_(connection),
      options_(options),
      annotator_(annotator),
      instance_(instance),
      dropPendingReplies_(std::move(dropPendingReplies)),
      pacer_(options.maxLoad),
      overlap_(!pacer_.active()),
      count_(std::to_string(options.count)),
      dedupe_(options.patterns.size() > 1) {
    summary_.progress.patterns = options_.patterns.size();
    annotator_.forgetRereads();
}

void ScanPass::compose(bool withScan) {
    Round r;
    r.sentAt = SteadyClock::now();
    if (withScan && !scanDone_) {
        const auto& pattern = options_.patterns[summary_.progress.pattern];
        std::string_view argv[] = {"SCAN", cursor_, "MATCH", pattern, "COUNT", count_};
        connection_.send(argv);
        r.scan = true;
        // The SCAN goes out alone first, so the server starts on it while the reads
        // of the previous page are still being formatted here.
        if (!pendingMain_.empty() || !pendingFollow_.empty()) connection_.flush();
    }
    // On a cluster node, keys wait across pages until a slot's worth can go in one MGET.
    pendingMain_ = annotator_.gatherBySlot(std::move(pendingMain_), scanDone_);
    if (!pendingMain_.empty())
        r.stages.push_back(annotator_.sendMain(connection_, std::move(pendingMain_)));
    if (!pendingFollow_.empty())
        r.stages.push_back(annotator_.sendFollowUp(connection_, std::move(pendingFollow_)));
    pendingMain_.clear();
    pendingFollow_.clear();
    if (!r.scan && r.stages.empty()) return;
    connection_.flush();
    ++summary_.progress.rounds;
    inflight_.push_back(std::move(r));
}

void ScanPass::refuseRepeatedCursor() {
    if (cursor_ == "0") {
        cursorsSeen_.clear();
        return;
    }
    if (cursorsSeen_.insert(cursor_).second) return;
    dropPendingReplies_();
    const ScanProgress& progress = summary_.progress;
    throw ProtocolError("SCAN on " + instance_ + ": the cursor " + cursor_.substr(0, 24) +
                        " came back for " + options_.patterns[progress.pattern] + " after " +
                        std::to_string(progress.keysSeen) +
                        " keys, so the scan would never end (a server or proxy that does not "
                        "walk the keyspace); stopped here");
}

// With several patterns, a key an earlier pattern also matches was returned by that
// pattern's pass if it was there for all of it (SCAN's promise); one that arrived during it
// is a key that arrived during the scan, which the next look finds. A set of every key
// seen, kept for the same purpose, took 90 MB during a pass over 1M locks (issue 37 item 7).
bool ScanPass::matchedEarlier(std::string_view key) const {
    const std::size_t current = summary_.progress.pattern;
    for (std::size_t earlier = 0; earlier < current; ++earlier)
        if (globMatch(options_.patterns[earlier], key)) return true;
    return false;
}

void ScanPass::readScanReply() {
    Reply page = connection_.receive();
    if (page.isError()) throwReplyError("SCAN", instance_, page.text());
    if (!page.view().isArray() || page.size() != 2 || !page[1].isArray())
        throw ProtocolError("SCAN on " + instance_ + ": the reply is not [cursor, keys]");
    cursor_ = std::string(page[0].text());
    refuseRepeatedCursor();
    ScanProgress& progress = summary_.progress;
    ReplyView keys = page[1];
    progress.keysSeen += keys.size();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        std::string key(keys[i].text());
        if (dedupe_ && matchedEarlier(key)) continue;
        pendingMain_.push_back(std::move(key));
    }
    if (cursor_ == "0" && ++progress.pattern >= options_.patterns.size()) {
        scanDone_ = true;
        progress.pattern = options_.patterns.size() - 1;
    }
    progress.fraction = scanDone_
                            ? 1.0
                            : (static_cast<double>(progress.pattern) + cursorFraction(cursor_)) /
                                  static_cast<double>(progress.patterns);
}

void ScanPass::checkDeadline() {
    if (options_.deadline.count() <= 0 || SteadyClock::now() - started_ < options_.deadline) return;
    dropPendingReplies_();
    throw TimeoutError("the scan of " + instance_ + " passed its deadline of " +
                       std::to_string(options_.deadline.count()) + " ms after " +
                       std::to_string(summary_.progress.keysSeen) + " keys; stopped here");
}

void ScanPass::updateElapsed() {
    summary_.progress.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - started_);
}

bool ScanPass::finishRound(Round round, const Scanner::BatchCallback& onBatch,
                           std::stop_token stop) {
    if (round.scan) readScanReply();
    const bool stopping = stop.stop_requested();
    if (overlap_ && !stopping) compose(true);
    BatchAnnotator::Output out;
    out.records = std::move(spareRecords_);
    for (auto& stage : round.stages) annotator_.receive(connection_, stage, out);
    ScanProgress& progress = summary_.progress;
    // A key whose slot moved mid-scan is read again by the cluster scan (cluster_scan.cpp).
    progress.vanished += out.vanished.size() + out.redirected.size();
    progress.locks += out.records.size();
    moveAppend(pendingMain_, std::move(out.retryMain));
    moveAppend(pendingFollow_, std::move(out.followUps));
    moveAppend(pendingFollow_, std::move(out.retryFollow));
    updateElapsed();
    if (!out.records.empty() || round.scan) {
        ScanBatch batch{std::move(out.records), progress};
        if (onBatch) onBatch(batch);
        // Whatever buffer the callback left (it moved the records out one by one) serves the
        // next round: a fresh one each round had its pages faulted in again every time.
        batch.records.clear();
        spareRecords_ = std::move(batch.records);
    }
    if (stopping || stop.stop_requested()) return false;  // drain what is in flight
    // The rest ends at the deadline, where the loop's check stops the scan.
    const auto restUntil = options_.deadline.count() > 0 ? started_ + options_.deadline
                                                         : SteadyClock::time_point::max();
    return overlap_ || pacer_.rest(SteadyClock::now() - round.sentAt, stop, restUntil);
}

ScanSummary ScanPass::run(const Scanner::BatchCallback& onBatch, std::stop_token stop) {
    compose(true);
    try {
        while (!inflight_.empty()) {
            checkDeadline();
            Round round = std::move(inflight_.front());
            inflight_.pop_front();
            if (!finishRound(std::move(round), onBatch, stop)) {
                summary_.cancelled = true;
                continue;  // send nothing more
            }
            if (inflight_.empty()) compose(true);
        }
    } catch (const IoError&) {
        throw;  // the connection already dropped its socket, and every pending reply with it
    } catch (...) {
        // Replies may still be in flight (a denied command, or the callback threw): a new
        // socket drops them, so the next command cannot read a stale reply.
        dropPendingReplies_();
        throw;
    }
    updateElapsed();
    summary_.notes = annotator_.notes();
    return std::move(summary_);
}

}  // namespace lockscope::inspect
