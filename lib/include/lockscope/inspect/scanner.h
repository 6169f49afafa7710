#pragma once
// Finds and annotates locks with SCAN (never KEYS), streaming results batch by batch.
//
// Each round is one write to the server: the next SCAN plus the reads for the keys of the
// previous SCAN (PTTL per key, MGET of the values, MGET of the fence counters), plus
// follow-ups for keys that are not strings (TYPE, HSCAN capped). The next round is sent as
// soon as the SCAN reply arrives, so the client decodes one batch while the server works on
// the next. Every command is bounded (COUNT keys per SCAN, one batch per MGET), so none
// blocks the server for long. Denied commands degrade: MGET -> GET per key, HSCAN -> HGETALL;
// the summary's notes say so.
//
// Threads: a Scanner uses the one Connection it is given, on the calling thread; run one
// Scanner per thread with its own Connection (Connection::openSibling()). The callback runs
// on that thread; records are values and may be moved to another thread.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scan_options.h"

namespace lockscope::inspect {

class BatchAnnotator;

struct ScanProgress {
    std::size_t pattern = 0;     // index of the pattern being scanned
    std::size_t patterns = 1;    // how many patterns in all
    double fraction = 0;         // 0..1, estimated from the SCAN cursor (needs no DBSIZE)
    std::uint64_t keysSeen = 0;  // keys SCAN returned
    std::uint64_t locks = 0;     // records delivered so far
    std::uint64_t vanished = 0;  // keys gone between SCAN and the read
    std::uint64_t rounds = 0;    // round trips
    std::chrono::milliseconds elapsed{0};
};

struct ScanBatch {
    std::vector<LockRecord> records;  // the callback may move them out
    ScanProgress progress;
};

struct ScanSummary {
    ScanProgress progress;
    bool cancelled = false;
    std::vector<std::string> notes;  // degradations, e.g. "MGET denied: reading with GET"
};

class Scanner {
  public:
    using BatchCallback = std::function<void(ScanBatch&)>;

    // The connection must outlive the scanner. Throws InvalidArgumentError for bad options.
    Scanner(Connection& connection, ScanOptions options = {});
    ~Scanner();
    Scanner(const Scanner&) = delete;
    Scanner& operator=(const Scanner&) = delete;

    // Scans every pattern to the end, calling onBatch as batches arrive, until done or
    // stop is requested (then in-flight replies are drained and cancelled is set). Throws
    // the connection's typed errors (IoError, PermissionError...) and leaves the connection
    // usable afterwards (it reconnects on the next command).
    ScanSummary run(const BatchCallback& onBatch, std::stop_token stop = {});

    // Scans and returns every record at once (small keyspaces, tests, the CLI).
    std::vector<LockRecord> collect(ScanSummary* summary = nullptr, std::stop_token stop = {});

    // Reads the given keys with the same pipeline and no SCAN (a watcher's cheap re-read).
    // Keys that no longer exist are left out; vanished, if given, receives them.
    // types, if given: per key, the type it had when last read; a key that was a hash or
    // another non-string is polled with the commands for its type only (no GET of a hash).
    // redirected, if given, receives the keys a cluster node answered MOVED, ASK or TRYAGAIN
    // for, with that answer (their slot moved or is moving); else they count as vanished.
    std::vector<LockRecord> readKeys(
        const std::vector<std::string>& keys, std::vector<std::string>* vanished = nullptr,
        const std::vector<ValueType>* types = nullptr,
        std::vector<std::pair<std::string, std::string>>* redirected = nullptr);

    const std::vector<std::string>& notes() const;
    const std::shared_ptr<const std::string>& instance() const { return instance_; }

  private:
    void dropPendingReplies() noexcept;

    Connection& connection_;
    ScanOptions options_;
    std::shared_ptr<const std::string> instance_;
    std::unique_ptr<BatchAnnotator> annotator_;
};

}  // namespace lockscope::inspect
