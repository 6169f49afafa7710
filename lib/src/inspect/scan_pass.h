#pragma once
// One annotated pass of a Scanner over its patterns: SCAN pages go out, the keys they name are
// read in the next round (the annotator's main and follow-up stages), and rounds overlap when
// the pass is not paced. Scanner::run is this pass's loop; the steps are named here.

#include <deque>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "batch_annotator.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/pacer.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::inspect {

class ScanPass {
  public:
    ScanPass(Connection& connection, const ScanOptions& options, BatchAnnotator& annotator,
             const std::string& instance, std::function<void()> dropPendingReplies);

    // Runs the pass to its end (or a stop), handing each round's records to onBatch.
    ScanSummary run(const Scanner::BatchCallback& onBatch, std::stop_token stop);

  private:
    struct Round {
        bool scan = false;
        std::vector<BatchAnnotator::Sent> stages;
        SteadyClock::time_point sentAt;
    };

    // Sends the next SCAN page (when withScan and pages remain) and the reads pending.
    void compose(bool withScan);
    // Reads a SCAN reply: the cursor, the keys to read next, the progress.
    void readScanReply();
    bool matchedEarlier(std::string_view key) const;
    void refuseRepeatedCursor();
    void checkDeadline();
    // Receives one round's reads and hands its records on; false once the pass must stop
    // sending (a stop, or the pacer's rest was cut short).
    bool finishRound(Round round, const Scanner::BatchCallback& onBatch, std::stop_token stop);
    void updateElapsed();

    Connection& connection_;
    const ScanOptions& options_;
    BatchAnnotator& annotator_;
    const std::string& instance_;
    std::function<void()> dropPendingReplies_;
    const SteadyClock::time_point started_ = SteadyClock::now();
    const Pacer pacer_;
    const bool overlap_;
    const std::string count_;
    const bool dedupe_;

    ScanSummary summary_;
    std::string cursor_ = "0";
    bool scanDone_ = false;
    std::vector<std::string> pendingMain_, pendingFollow_;
    std::vector<LockRecord> spareRecords_;  // the last batch's buffer, reused (finishRound)
    // A real SCAN never returns a cursor twice in one pass (the reversed cursor only grows):
    // one that comes back means a server or proxy that would keep the scan going forever.
    std::unordered_set<std::string> cursorsSeen_;
    std::deque<Round> inflight_;
};

}  // namespace lockscope::inspect
