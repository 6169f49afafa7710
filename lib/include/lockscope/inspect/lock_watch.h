#pragma once
// Keeps the locks of one server up to date: re-reads the known locks cheaply (one pipeline
// of PTTL + MGET + fence reads) every poll interval, and rescans for new ones less often.
// A server that goes away (restart, failover) makes a step report disconnected; the next
// step reconnects and goes on. When the server publishes keyspace notifications, the watch
// follows them on a second connection and re-reads a touched lock at once
// (waitForEvents); it never switches them on: LockScope does not change server configuration.
//
// Threads: like Scanner, a LockWatch belongs to the thread that calls it, with its own
// Connection. Updates are values; hand them to other threads as copies.

#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/keyspace_follower.h"
#include "lockscope/inspect/lock_table.h"
#include "lockscope/inspect/scan_options.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"

namespace lockscope::inspect {

struct WatchOptions {
    ScanOptions scan;
    std::chrono::milliseconds pollInterval{500};
    std::chrono::milliseconds rescanInterval{5000};
    DoctorOptions doctor;
    bool followKeyspaceEvents = true;  // when the server publishes them
    // Ordinary keys under the patterns (lock_shape.h) are left out of the table, so they
    // are neither shown as locks nor polled every interval; true keeps them.
    bool includeNonLocks = false;
    // When set, a rescan hands each batch's new and changed records (merged with their
    // history, findings judged) to this callback as the batch arrives, instead of
    // returning them all at the end: a view shows rows while a long scan streams in.
    std::function<void(std::vector<LockRecord>& batch, const ScanProgress& progress)> onRescanBatch;
};

// What a watch knew when its connection was lost, for the watch on the next connection: the
// locks last seen (a rescan then removes the ones that are gone) and the server's run_id
// (a different one means the server restarted).
struct WatchMemory {
    LockTable table;
    std::string runId;
};

struct WatchUpdate {
    std::vector<LockRecord> changed;   // new keys and keys whose holder, TTL or fence changed
    std::vector<std::string> removed;  // keys that are gone
    bool rescanned = false;
    bool connected = true;
    std::string error;           // why the server could not be read (when !connected)
    std::string restartNote;     // set when the server restarted since the last connection
    SteadyClock::time_point at;  // when this step started
};

class LockWatch {
  public:
    using UpdateCallback = std::function<void(const WatchUpdate&)>;

    LockWatch(Connection& connection, WatchOptions options = {});
    // Resumes from a lost connection's watch: its first rescan reconciles the locks it knew.
    LockWatch(Connection& connection, WatchOptions options, WatchMemory memory);

    // What the next connection's watch needs; leaves this watch empty.
    WatchMemory takeMemory();

    // One step: a rescan when due (always the first time), else a poll of the known locks.
    // Connection errors are reported in the update, not thrown; other errors (a denied
    // SCAN, bad options) are thrown.
    WatchUpdate step(std::stop_token stop = {});
    // Makes the next step a rescan (the operator pressed Refresh), keeping the history.
    void requestRescan() { needRescan_ = true; }
    // Waits up to `wait` for keyspace notifications and re-reads the keys they name. Returns
    // an update (empty when nothing happened); without notifications it just waits.
    WatchUpdate waitForEvents(std::chrono::milliseconds wait, std::stop_token stop = {});
    // Steps every poll interval until stop is requested, calling onUpdate after each, and
    // in between after every keyspace notification.
    void run(const UpdateCallback& onUpdate, std::stop_token stop);

    // Whether keyspace notifications are being followed right now.
    bool followingEvents() const { return follower_ != nullptr; }
    const LockTable& table() const { return table_; }
    const ServerFacts& server() const { return facts_; }
    const std::vector<std::string>& notes() const { return notes_; }
    // Ordinary keys the last complete rescan left out (includeNonLocks off).
    std::uint64_t nonLockKeys() const { return nonLockKeys_; }

  private:
    WatchUpdate rescan(std::stop_token stop);
    WatchUpdate poll();
    WatchUpdate reread(const std::vector<std::string>& keys);
    void refreshFindings(std::vector<LockRecord>& changed);
    void startFollowing();
    void addNote(const std::string& note);  // once: a note already given is not repeated
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
};

}  // namespace lockscope::inspect
