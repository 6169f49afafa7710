#include "lockscope/inspect/lock_watch.h"

#include <algorithm>
#include <condition_variable>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/inspect/lock_shape.h"
#include "lockscope/inspect/pacer.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::inspect {

LockWatch::LockWatch(Connection& connection, WatchOptions options)
    : connection_(connection), options_(std::move(options)) {
    validate(options_.scan);
    scanner_ = std::make_unique<Scanner>(connection_, options_.scan);
    if (options_.pollInterval.count() < 10 || options_.rescanInterval.count() < 10)
        throw InvalidArgumentError("watch intervals must be at least 10 ms");
}

LockWatch::LockWatch(Connection& connection, WatchOptions options, WatchMemory memory)
    : LockWatch(connection, std::move(options)) {
    table_ = std::move(memory.table);
    previousRunId_ = std::move(memory.runId);
}

WatchMemory LockWatch::takeMemory() {
    WatchMemory memory{std::move(table_), facts_.runId.empty() ? previousRunId_ : facts_.runId};
    table_ = LockTable{};
    return memory;
}

void LockWatch::refreshFindings(std::vector<LockRecord>& changed) {
    Doctor doctor(options_.doctor);
    for (auto& r : changed) r.findings = doctor.examine(r, facts_, SteadyClock::now());
}

WatchUpdate LockWatch::rescan(std::stop_token stop) {
    WatchUpdate update;
    update.rescanned = true;
    std::unordered_set<std::string> found;
    std::uint64_t nonLocks = 0;
    ScanSummary summary = scanner_->run(
        [&](ScanBatch& batch) {
            std::vector<LockRecord> changed;
            for (auto& r : batch.records) {
                if (!options_.includeNonLocks && !isLockShaped(r)) {
                    ++nonLocks;
                    continue;
                }
                found.insert(r.key);
                LockRecord copy = r;
                if (table_.observe(std::move(r))) changed.push_back(std::move(copy));
            }
            if (!options_.onRescanBatch) {
                std::move(changed.begin(), changed.end(), std::back_inserter(update.changed));
                return;
            }
            for (auto& r : changed)
                if (const LockRecord* merged = table_.find(r.key)) r = *merged;
            refreshFindings(changed);
            options_.onRescanBatch(changed, batch.progress);
        },
        stop);
    for (const auto& n : summary.notes) addNote(n);
    if (!summary.cancelled) {
        nonLockKeys_ = nonLocks;
        for (const auto& key : table_.keys())
            if (!found.count(key)) {
                table_.remove(key);
                update.removed.push_back(key);
            }
    }
    return update;
}

WatchUpdate LockWatch::poll() {
    return reread(table_.keys());
}

WatchUpdate LockWatch::reread(const std::vector<std::string>& keys) {
    WatchUpdate update;
    if (keys.empty()) return update;
    std::vector<std::string> vanished;
    // Each key is read with the commands for the type it had (no GET of a hash).
    std::vector<ValueType> types;
    types.reserve(keys.size());
    for (const auto& key : keys) {
        const LockRecord* known = table_.find(key);
        types.push_back(known ? known->type : ValueType::String);
    }
    for (auto& r : scanner_->readKeys(keys, &vanished, &types)) {
        LockRecord copy = r;
        if (table_.observe(std::move(r))) update.changed.push_back(std::move(copy));
    }
    for (auto& key : vanished)
        if (table_.remove(key)) update.removed.push_back(std::move(key));
    return update;
}

WatchUpdate LockWatch::step(std::stop_token stop) {
    auto start = SteadyClock::now();
    WatchUpdate update;
    std::string restartNote;
    try {
        if (!probed_) {
            facts_ = probeServer(connection_);
            probed_ = true;
            restartNote = restartSincePreviousConnection();
            startFollowing();
        }
        bool due = needRescan_ || start - lastRescan_ >= options_.rescanInterval;
        update = due ? rescan(stop) : poll();
        if (due) {
            lastRescan_ = start;
            needRescan_ = false;
        }
        // History-based findings (renewals) change over time: judge every changed record
        // against the merged history, not the bare observation.
        for (auto& r : update.changed)
            if (const LockRecord* merged = table_.find(r.key)) r = *merged;
        refreshFindings(update.changed);
        update.restartNote = std::move(restartNote);
    } catch (const IoError& e) {
        update = WatchUpdate{};
        update.connected = false;
        update.error = e.what();
        needRescan_ = true;  // after a restart or failover, find out what is there again
        probed_ = false;
        if (!facts_.runId.empty()) previousRunId_ = facts_.runId;
        follower_.reset();
    }
    update.at = start;
    return update;
}

std::string LockWatch::restartSincePreviousConnection() {
    std::string previous = std::exchange(previousRunId_, {});
    if (previous.empty() || facts_.runId.empty() || previous == facts_.runId) return {};
    return "server restarted (run_id " + previous.substr(0, 8) + "… → " +
           facts_.runId.substr(0, 8) + "…): locks it held before are gone";
}

void LockWatch::addNote(const std::string& note) {
    if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
}

void LockWatch::startFollowing() {
    if (options_.followKeyspaceEvents && facts_.keyspaceEvents == KeyspaceEvents::Disabled)
        addNote("keyspace notifications are off on this server (notify-keyspace-events \"" +
                facts_.notifyFlags + "\"): changes are seen by polling every " +
                std::to_string(options_.pollInterval.count()) +
                " ms; LockScope never switches them on");
    if (!options_.followKeyspaceEvents || followDenied_ || follower_ ||
        facts_.keyspaceEvents != KeyspaceEvents::Enabled)
        return;
    try {
        follower_ =
            std::make_unique<KeyspaceFollower>(connection_.openSibling(), options_.scan.patterns);
    } catch (const PermissionError& e) {
        followDenied_ = true;
        notes_.push_back(
            std::string("PSUBSCRIBE denied: polling instead of following keyspace events (") +
            e.what() + ")");
    }
}

WatchUpdate LockWatch::waitForEvents(std::chrono::milliseconds wait, std::stop_token stop) {
    WatchUpdate update;
    update.at = SteadyClock::now();
    if (!follower_) {
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        cv.wait_for(lock, stop, wait, [] { return false; });
        return update;
    }
    try {
        auto keys = follower_->poll(wait);
        if (keys.empty()) return update;
        update = reread(keys);
        for (auto& r : update.changed)
            if (const LockRecord* merged = table_.find(r.key)) r = *merged;
        refreshFindings(update.changed);
    } catch (const IoError& e) {
        follower_.reset();  // polling goes on; the next probe after a reconnect follows again
        update = WatchUpdate{};
        update.connected = false;
        update.error = e.what();
        needRescan_ = true;
        probed_ = false;
        if (!facts_.runId.empty()) previousRunId_ = facts_.runId;
    }
    update.at = SteadyClock::now();
    return update;
}

void LockWatch::run(const UpdateCallback& onUpdate, std::stop_token stop) {
    while (!stop.stop_requested()) {
        auto next = SteadyClock::now() + options_.pollInterval;
        WatchUpdate update = step(stop);
        if (onUpdate) onUpdate(update);
        // Between steps, keyspace notifications (if followed) bring changes at once.
        for (auto now = SteadyClock::now(); now < next && !stop.stop_requested();
             now = SteadyClock::now()) {
            auto slice = std::min<std::chrono::milliseconds>(
                std::chrono::duration_cast<std::chrono::milliseconds>(next - now) +
                    std::chrono::milliseconds(1),
                std::chrono::milliseconds(100));
            WatchUpdate events = waitForEvents(slice, stop);
            if ((!events.changed.empty() || !events.removed.empty() || !events.connected) &&
                onUpdate)
                onUpdate(events);
        }
    }
}

}  // namespace lockscope::inspect
