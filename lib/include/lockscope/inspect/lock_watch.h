#pragma once
// Keeps the locks of one server up to date within a load budget (watch_policy.h): every poll
// interval it re-reads (one pipeline of PTTL + MGET + fence reads) what a person sees or
// needs now, and the other locks in rotation and a names-only sweep for new keys only as
// fast as the budget allows (default 5% of one server core). A full annotated rescan runs
// first, after a reconnect and on request (Refresh); load() tells what the watch costs.
// A server that goes away (restart, failover) makes a step report disconnected; the next
// step reconnects and goes on. When the server publishes keyspace notifications, the watch
// follows them on a second connection and re-reads a touched lock at once
// (waitForEvents); it never switches them on: LockScope does not change server configuration.
//
// Threads: like Scanner, a LockWatch belongs to the thread that calls it, with its own
// Connection. Updates are values; hand them to other threads as copies.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <unordered_set>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/keyspace_follower.h"
#include "lockscope/inspect/load_meter.h"
#include "lockscope/inspect/lock_table.h"
#include "lockscope/inspect/scan_options.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "lockscope/inspect/watch_coverage.h"
#include "lockscope/inspect/watch_policy.h"

namespace lockscope::inspect {

class KeyspaceSweep;
class ServerTimeProbe;

struct WatchOptions {
    ScanOptions scan;
    std::chrono::milliseconds pollInterval{500};
    // The least time between two starts of the sweep for new keys (a full pass of the
    // keyspace); a large keyspace takes longer, as the budget allows.
    std::chrono::milliseconds rescanInterval{5000};
    // Share of one server core the steady-state watch may use, (0, 1]; 1 re-reads every
    // lock every interval, as before the budget existed.
    double budget = 0.05;
    DoctorOptions doctor;
    bool followKeyspaceEvents = true;  // when the server publishes them
    // Ordinary keys under the patterns (lock_shape.h) are left out of the table, so they
    // are neither shown as locks nor polled every interval; true keeps them.
    bool includeNonLocks = false;
    // When set, a rescan hands each batch's new and changed records (merged with their
    // history, findings judged) to this callback as the batch arrives, instead of
    // returning them all at the end: a view shows rows while a long scan streams in.
    std::function<void(std::vector<LockRecord>& batch, const ScanProgress& progress)> onRescanBatch;
    // A primary of a Redis Cluster watched beside the others (cluster_watch_hand_off.h): a
    // key whose read answers MOVED, ASK or TRYAGAIN is kept as last seen and reported in
    // WatchUpdate::redirected, for the hand-off to read it from the slot's new owner. Off,
    // such a key is dropped as gone (a lone watch has no other node to read it from).
    bool handOffRedirects = false;
    // The watcher's own CPU (the rotation and the sweep wait for it): when set, this watch's
    // part of a budget shared by the process's watches; else 3% of a core of its own.
    std::shared_ptr<SharedCpuBudget> sharedClientBudget;
};

// What an operator may change on a running watch without losing its history (the window's
// Settings): whether ordinary keys are kept, and when a renewed lock is held too long.
struct WatchJudging {
    bool includeNonLocks = false;
    std::chrono::milliseconds heldTooLong{std::chrono::minutes(30)};
};

// What a watch knew when its connection was lost, for the watch on the next connection: the
// locks last seen (a rescan then removes the ones that are gone) and the server's run_id
// (a different one means the server restarted).
struct WatchMemory {
    LockTable table;
    std::string runId;
    // What the table was read under; none: whatever the next watch reads (a reconnect).
    std::optional<WatchCoverage> coverage;
};

struct WatchUpdate {
    std::vector<LockRecord> changed;   // new keys and keys whose holder, TTL or fence changed
    std::vector<std::string> removed;  // keys that are gone
    bool rescanned = false;
    // A complete rescan found no lock at all (a server restarted empty, FLUSHALL): every key
    // known before is gone. removed still lists them; a view may drop them all at once.
    bool emptied = false;
    bool connected = true;
    std::string error;           // why the server could not be read (when !connected)
    std::string restartNote;     // set when the server restarted since the last connection
    bool fullSpeedScan = false;  // this rescan ran at full speed, at the operator's request
    SteadyClock::time_point at;  // when this step started
    // handOffRedirects: keys a read found on another node (their slot moved or is moving),
    // with the node's answer ("MOVED 3999 10.0.0.2:6379"); still in the table, as last seen.
    std::vector<std::pair<std::string, std::string>> redirected;
    // Keys this watch gave to the watch of their slot's new owner: not gone, moved.
    std::vector<std::string> movedAway;
};

class LockWatch {
  public:
    using UpdateCallback = std::function<void(const WatchUpdate&)>;

    LockWatch(Connection& connection, WatchOptions options = {});
    // Resumes from a lost connection's watch: its first rescan reconciles the locks it knew.
    LockWatch(Connection& connection, WatchOptions options, WatchMemory memory);
    ~LockWatch();

    // What the next connection's watch needs; leaves this watch empty.
    WatchMemory takeMemory();

    // One step: a rescan when due (always the first time), else a poll of the known locks.
    // Connection errors are reported in the update, not thrown; other errors (a denied
    // SCAN, bad options) are thrown.
    WatchUpdate step(std::stop_token stop = {});
    // Makes the next step a rescan (the operator pressed Refresh), keeping the history.
    // fullSpeed: that rescan ignores scan.maxLoad ("scan now at full speed").
    void requestRescan(bool fullSpeed = false) {
        needRescan_ = true;
        fullSpeedNext_ = fullSpeedNext_ || fullSpeed;
    }
    // The keys a person sees now (visible rows, the selected lock): read every interval.
    void setFocus(std::vector<std::string> keys) { policy_.setFocus(std::move(keys)); }
    // Changes the steady-state budget, (0, 1]; throws InvalidArgumentError otherwise.
    void setBudget(double share) { policy_.setBudget(share); }
    // New judging rules, the table and its history kept (lock_watch_judging.cpp). Returns
    // what a view must change now: the records whose findings moved, and the ordinary keys
    // dropped when they are no longer kept. Ordinary keys now kept come with the next rescan,
    // which this requests.
    WatchUpdate setJudging(const WatchJudging& judging);
    // Commands per second and server-time share used over the last 10 s, with the budget.
    LoadFigures load() const { return meter_.figures(SteadyClock::now(), policy_.budget()); }
    // Reads made for this watch between its steps (the holder liveness reads, on its
    // connection): charged to the same budget and shown in its load, so they slow the next
    // re-reads instead of adding to the server's share on top of it.
    void chargeOtherReads(std::chrono::nanoseconds busy, std::uint64_t commands);
    const WatchPolicy& policy() const { return policy_; }
    // Waits up to `wait` for keyspace notifications and re-reads the keys they name. Returns
    // an update (empty when nothing happened); without notifications it just waits.
    WatchUpdate waitForEvents(std::chrono::milliseconds wait, std::stop_token stop = {});
    // Steps every poll interval until stop is requested, calling onUpdate after each, and
    // in between after every keyspace notification.
    void run(const UpdateCallback& onUpdate, std::stop_token stop);

    // Cluster slot hand-off (cluster_watch_hand_off.h). giveUpSlots: forgets the keys of
    // slots another node serves now and returns them by slot (one pass over the table,
    // however many slots a resharding moved). adoptSlot: reads those keys and any
    // other of the slot's keys under the patterns (CLUSTER GETKEYSINSLOT) on this watch's
    // node now, and keeps them. refreshRecords: what was read for this watch elsewhere (a
    // key in migration, read with ASKING on the importing node) updates its table.
    std::map<int, std::vector<std::string>> giveUpSlots(const std::set<int>& slots);
    WatchUpdate adoptSlot(int slot, const std::vector<std::string>& known);
    // adoptSlot with the giver's records (giveUpRedirectedSlots): their history is kept, and
    // every one still held is in the update's changed (a view moves its row here).
    WatchUpdate adoptSlot(int slot, std::vector<LockRecord> given);
    // gone: keys found released there, removed here.
    void refreshRecords(std::vector<LockRecord> records, std::vector<std::string> gone,
                        WatchUpdate& update);

    // A key's holder verdict, judged beside the watch (a ServerWatch's liveness): kept in the
    // table with the doctor's "orphaned" finding that follows from it. Returns the record as
    // the table keeps it now (null for an unknown key).
    const LockRecord* setLiveness(std::string_view key,
                                  std::shared_ptr<const HolderVerdict> liveness);

    // Whether keyspace notifications are being followed right now.
    bool followingEvents() const { return follower_ != nullptr; }
    const LockTable& table() const { return table_; }
    // A key's record for a view to keep instead of a copy (LockTable::share).
    std::shared_ptr<const LockRecord> share(std::string_view key) { return table_.share(key); }
    const ServerFacts& server() const { return facts_; }
    const std::vector<std::string>& notes() const { return notes_; }
    // Ordinary keys the last complete rescan left out (includeNonLocks off).
    std::uint64_t nonLockKeys() const { return nonLockKeys_; }

  private:
    WatchUpdate rescan(std::stop_token stop);
    WatchUpdate pollWithinBudget(SteadyClock::time_point now);
    void sweepForNewKeys(int rounds, SteadyClock::time_point now, WatchUpdate& update);
    void readNewKeys(const std::vector<std::string>& keys, WatchUpdate& update);
    std::chrono::milliseconds sweepPause() const;
    WatchUpdate reread(const std::vector<std::string>& keys);
    // The doctor's findings of changed records, kept in the table's records too.
    void refreshFindings(std::vector<LockRecord>& changed);
    // refreshFindings() of the records as merged in the table.
    void judge(std::vector<LockRecord>& changed);
    void startFollowing();
    void addNote(const std::string& note);  // once: a note already given is not repeated
    // Whether a key found now, absent from the table, was seen arriving (not merely unread).
    bool seenArriving(const LockRecord& record) const;
    WatchCoverage coverage() const { return {options_.scan.patterns, options_.includeNonLocks}; }
    // A note when the server's run_id differs from the one before the reconnect.
    std::string restartSincePreviousConnection();

    Connection& connection_;
    WatchOptions options_;
    LockTable table_;
    ServerFacts facts_;
    bool probed_ = false;
    SteadyClock::time_point lastRescan_{};
    bool needRescan_ = true;
    std::vector<std::string> notes_;
    std::unique_ptr<Scanner> scanner_;  // one for scans and re-reads: it remembers denied commands
    std::unique_ptr<KeyspaceFollower> follower_;
    bool followDenied_ = false;
    std::string previousRunId_;  // the run_id of the server before a reconnect
    std::uint64_t nonLockKeys_ = 0;
    bool fullSpeedNext_ = false;
    bool scannedOnce_ = false;  // a complete scan is done: keys found later appeared since
    // Until a complete scan under the options now: what the table covered before they were
    // widened (new patterns, ordinary keys let in). Keys outside it were there unread.
    std::optional<WatchCoverage> coveredBefore_;
    WatchPolicy policy_;
    LoadMeter meter_;
    std::unique_ptr<KeyspaceSweep> sweep_;
    std::unique_ptr<ServerTimeProbe> serverTime_;  // INFO commandstats and cpu, where allowed
    // Its reading at the last step: commandstats usec, and the server's CPU usec.
    std::optional<std::uint64_t> lastServerUsec_, lastServerCpuUsec_;
    // What chargeOtherReads charged since that reading: in the server's deltas, not the step's.
    std::chrono::nanoseconds otherReadsSinceStep_{0};
    SteadyClock::time_point passStartedAt_{};
    std::uint64_t sweepPasses_ = 0;
    std::chrono::nanoseconds passCost_{0};  // server time of the sweep pass in progress
    // Hashes of ordinary keys the sweep has read once: not read again every pass.
    std::unordered_set<std::uint64_t> nonLockHashes_;
};

}  // namespace lockscope::inspect
