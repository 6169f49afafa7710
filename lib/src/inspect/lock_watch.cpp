#include "lockscope/inspect/lock_watch.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <utility>

#include "cluster/slot_motion.h"
#include "keyspace_sweep.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_shape.h"
#include "lockscope/inspect/pacer.h"
#include "lockscope/inspect/scanner.h"
#include "server_time_probe.h"

namespace lockscope::inspect {

namespace {

std::uint64_t keyHash(std::string_view key) {
    return std::hash<std::string_view>{}(key);
}

std::chrono::nanoseconds since(SteadyClock::time_point t0) {
    return SteadyClock::now() - t0;
}

// The CPU this thread has used: the watcher's own cost of a re-read, beside the server's.
std::chrono::nanoseconds threadCpuTime() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

// Merges a read into the table and adds the merged record to the update when a view would
// show something new. Copied only then: most re-reads change nothing, and a copy of each
// read (its key and token) was a good part of the re-reads' cost (issue 36).
void keepChanged(LockTable& table, LockRecord fresh, WatchUpdate& update) {
    bool changed = false;
    const LockRecord& kept = table.merge(std::move(fresh), changed);
    if (changed) update.changed.push_back(kept);
}

}  // namespace

LockWatch::LockWatch(Connection& connection, WatchOptions options)
    : connection_(connection),
      options_(std::move(options)),
      policy_({.interval = std::max(options_.pollInterval, std::chrono::milliseconds(10)),
               .budget = options_.budget,
               .sharedClientBudget = options_.sharedClientBudget}) {
    validate(options_.scan);
    scanner_ = std::make_unique<Scanner>(connection_, options_.scan);
    if (options_.pollInterval.count() < 10 || options_.rescanInterval.count() < 10)
        throw InvalidArgumentError("watch intervals must be at least 10 ms");
    // Names only, with the annotated scan's COUNT: a pass over 3M keys cost the server the
    // same CPU with COUNT 1000 as with 5000 (2.9 s), but each call held the server 0.9 ms
    // instead of 9 ms, and INFO commandstats (the budget's measure) overstated the long
    // calls about 2x on a loaded machine.
    sweep_ = std::make_unique<KeyspaceSweep>(options_.scan.patterns, options_.scan.count);
    serverTime_ = std::make_unique<ServerTimeProbe>();
}

LockWatch::~LockWatch() = default;

LockWatch::LockWatch(Connection& connection, WatchOptions options, WatchMemory memory)
    : LockWatch(connection, std::move(options)) {
    table_ = std::move(memory.table);
    previousRunId_ = std::move(memory.runId);
    scannedOnce_ = table_.size() > 0;  // what it finds now appeared since the last look
    coveredBefore_ = std::move(memory.coverage);
}

WatchMemory LockWatch::takeMemory() {
    WatchMemory memory{std::move(table_), facts_.runId.empty() ? previousRunId_ : facts_.runId,
                       coveredBefore_.value_or(coverage())};
    table_ = LockTable{};
    return memory;
}

void LockWatch::refreshFindings(std::vector<LockRecord>& changed) {
    Doctor doctor(options_.doctor);
    for (auto& r : changed) {
        r.findings = doctor.examine(r, facts_, SteadyClock::now());
        // The table's record carries the verdict too: a view may share it (share()).
        table_.setFindings(r.key, r.findings);
    }
}

const LockRecord* LockWatch::setLiveness(std::string_view key,
                                         std::shared_ptr<const HolderVerdict> liveness) {
    const LockRecord* r = table_.find(key);
    if (!r) return nullptr;
    // The doctor's rule (doctor.cpp): orphaned exactly when the holder is gone.
    std::uint32_t findings = r->findings & ~bit(RuleId::Orphaned);
    if (liveness && liveness->verdict == Verdict::Gone) findings |= bit(RuleId::Orphaned);
    table_.setVerdict(key, std::move(liveness), findings);
    return table_.find(key);
}

void LockWatch::judge(std::vector<LockRecord>& changed) {
    // History-based findings (renewals) change over time: judge every changed record
    // against the merged history, not the bare observation.
    for (auto& r : changed)
        if (const LockRecord* merged = table_.find(r.key)) r = *merged;
    refreshFindings(changed);
}

WatchUpdate LockWatch::rescan(std::stop_token stop) {
    WatchUpdate update;
    update.rescanned = true;
    // The records this scan saw, by their address in the table (fixed while they stay in
    // it). A set of a million key copies, built while the table's nodes were allocated and
    // freed after, left about 100 MB of small holes between them that the heap could not
    // hand back (issue 18: the window's memory).
    std::vector<const LockRecord*> found;
    std::uint64_t nonLocks = 0;
    // "Scan now at full speed": one rescan ignores the pace (a scanner of its own, unpaced).
    std::unique_ptr<Scanner> unpaced;
    Scanner* scanner = scanner_.get();
    if (std::exchange(fullSpeedNext_, false) && options_.scan.maxLoad < 1.0) {
        ScanOptions fast = options_.scan;
        fast.maxLoad = 1.0;
        unpaced = std::make_unique<Scanner>(connection_, fast);
        scanner = unpaced.get();
        update.fullSpeedScan = true;
    }
    const auto started = SteadyClock::now();
    const auto commandsBefore = connection_.commandsSent();
    ScanSummary summary = scanner->run(
        [&](ScanBatch& batch) {
            std::vector<const LockRecord*> merged;
            for (auto& r : batch.records) {
                if (!options_.includeNonLocks && !isLockShaped(r)) {
                    ++nonLocks;
                    continue;
                }
                if (seenArriving(r)) r.appearedWhileWatching = true;
                bool changed = false;
                const LockRecord& kept = table_.merge(std::move(r), changed);
                found.push_back(&kept);
                if (changed) merged.push_back(&kept);
            }
            // The view's copies are made after the batch's table nodes, not between them:
            // freed once shown, they leave whole pages the heap can hand back.
            std::vector<LockRecord> changed;
            changed.reserve(merged.size());
            for (const LockRecord* kept : merged) changed.push_back(*kept);
            if (!options_.onRescanBatch) {
                std::move(changed.begin(), changed.end(), std::back_inserter(update.changed));
                return;
            }
            refreshFindings(changed);
            options_.onRescanBatch(changed, batch.progress);
        },
        stop);
    // A paced scan rested (1 - share) of its time; its busy time is the rest.
    const double pace = update.fullSpeedScan ? 1.0 : options_.scan.maxLoad;
    meter_.add(SteadyClock::now(), connection_.commandsSent() - commandsBefore,
               std::chrono::nanoseconds(std::llround(double(since(started).count()) * pace)));
    for (const auto& n : summary.notes) addNote(n);
    if (!summary.cancelled) {
        // Until a sweep pass is measured, its cost is guessed from the keys this scan
        // visited: SCAN MATCH cost Redis 7.0 about 1 µs a key (0.9 µs here, 3M keys), and
        // the watch's measure (round trips, commandstats) about twice that on a loaded
        // machine. Guessing high makes the first pass quicker, not the budget larger.
        if (sweepPasses_ == 0)
            policy_.setSweepPassCost(std::chrono::microseconds(2) *
                                     std::int64_t(summary.progress.keysSeen));
        scannedOnce_ = true;
        coveredBefore_.reset();  // the table now holds all the options admit
        nonLockKeys_ = nonLocks;
        if (found.empty() && table_.size() > 0) {
            // Nothing left (a restart with no persistence): one flag, not a lookup a key.
            update.removed = table_.keys();
            table_ = LockTable{};
            update.emptied = true;
        }
        std::sort(found.begin(), found.end());
        std::vector<std::string> gone;
        for (const auto& [key, record] : table_.records())
            if (!std::binary_search(found.begin(), found.end(), &*record)) gone.emplace_back(key);
        for (auto& key : gone) {
            table_.remove(key);
            update.removed.push_back(std::move(key));
        }
    }
    return update;
}

std::chrono::milliseconds LockWatch::sweepPause() const {
    // Keyspace notifications already bring new keys: sweep rarely, as a safety net.
    return follower_ ? std::max(options_.rescanInterval * 12, std::chrono::milliseconds(60'000))
                     : options_.rescanInterval;
}

WatchUpdate LockWatch::pollWithinBudget(SteadyClock::time_point now) {
    policy_.setFollowingEvents(follower_ != nullptr);
    const bool wantSweep = sweep_->inPass() || now - passStartedAt_ >= sweepPause();
    PollPlan plan = policy_.plan(table_, now, wantSweep);
    WatchUpdate update;
    const auto commandsBefore = connection_.commandsSent();
    std::chrono::nanoseconds pollBusy{0}, sweepBusy{0};
    if (!plan.keys.empty()) {
        const auto started = SteadyClock::now();
        const auto cpuBefore = threadCpuTime();
        update = reread(plan.keys);
        pollBusy = since(started);
        policy_.spentOnClient(threadCpuTime() - cpuBefore, plan.keys.size());
    }
    if (plan.sweepRounds > 0) {
        const auto started = SteadyClock::now();
        const auto cpuBefore = threadCpuTime();
        sweepForNewKeys(plan.sweepRounds, now, update);
        sweepBusy = since(started);
        policy_.spentOnClientSweep(threadCpuTime() - cpuBefore, plan.sweepRounds);
    }
    // The round trips bound the server time from above; where INFO commandstats answers, the
    // server's own account since the last step is closer (and counts event re-reads too).
    auto charged = pollBusy + sweepBusy;
    // Where the server's CPU time answers too, the smaller of the two: commandstats counts
    // wall time in each command, which a loaded machine inflates (issue 18: the sweep then
    // ran at 3.6% of a core by the server's CPU time while it charged itself 4.8%).
    if (auto reading = serverTime_->sample(connection_)) {
        auto sinceLast = [](std::uint64_t now, const std::optional<std::uint64_t>& last) {
            return last && now >= *last
                       ? std::optional(std::chrono::nanoseconds(std::int64_t(now - *last) * 1000))
                       : std::nullopt;
        };
        // Both deltas count the liveness reads made since the last step too, which
        // chargeOtherReads already charged: only the rest is this step's (never below 0).
        auto ownPart = [&](std::chrono::nanoseconds serverDelta) {
            return std::max(serverDelta - otherReadsSinceStep_, std::chrono::nanoseconds(0));
        };
        if (auto usec = sinceLast(reading->commandsUsec, lastServerUsec_))
            charged = std::min(charged, ownPart(*usec));
        if (auto usec =
                reading->cpuUsec ? sinceLast(*reading->cpuUsec, lastServerCpuUsec_) : std::nullopt)
            charged = std::min(charged, ownPart(*usec));
        lastServerUsec_ = reading->commandsUsec;
        lastServerCpuUsec_ = reading->cpuUsec;
    }
    otherReadsSinceStep_ = std::chrono::nanoseconds(0);
    const double total = double((pollBusy + sweepBusy).count());
    const double pollPart = total > 0 ? double(pollBusy.count()) / total : 1.0;
    const auto pollCharge =
        std::chrono::nanoseconds(std::llround(double(charged.count()) * pollPart));
    if (!plan.keys.empty()) policy_.spentOnPoll(pollCharge, plan.keys.size());
    if (plan.sweepRounds > 0) {
        policy_.spentOnSweep(charged - pollCharge, plan.sweepRounds);
        passCost_ += charged - pollCharge;
    }
    meter_.add(SteadyClock::now(), connection_.commandsSent() - commandsBefore, charged);
    policy_.prepareNext(table_, SteadyClock::now());
    return update;
}

void LockWatch::chargeOtherReads(std::chrono::nanoseconds busy, std::uint64_t commands) {
    policy_.spentOnPoll(busy, 0);
    meter_.add(SteadyClock::now(), commands, busy);
    otherReadsSinceStep_ += busy;
}

void LockWatch::sweepForNewKeys(int rounds, SteadyClock::time_point now, WatchUpdate& update) {
    if (!sweep_->inPass()) passStartedAt_ = now;
    bool passDone = false;
    auto fresh = sweep_->advance(
        connection_, rounds,
        [&](std::string_view key) {
            return table_.find(key) || nonLockHashes_.count(keyHash(key));
        },
        passDone);
    readNewKeys(fresh, update);
    if (!passDone) return;
    // What this pass cost sizes the next one's share (this step's part is charged after).
    policy_.setSweepPassCost(std::exchange(passCost_, std::chrono::nanoseconds(0)));
    update.rescanned = true;
    // A key once ordinary may be a lock later (SET over it): forget them now and then.
    if (++sweepPasses_ % 10 == 0) nonLockHashes_.clear();
}

namespace {

// Whether the table covered the record's key before a widening (none: no widening since).
bool coveredBy(const std::optional<WatchCoverage>& before, const LockRecord& record) {
    return !before || before->covers(record);
}

}  // namespace

bool LockWatch::seenArriving(const LockRecord& record) const {
    return scannedOnce_ && !table_.find(record.key) && coveredBy(coveredBefore_, record);
}

void LockWatch::readNewKeys(const std::vector<std::string>& keys, WatchUpdate& update) {
    if (keys.empty()) return;
    for (auto& r : scanner_->readKeys(keys)) {
        if (!options_.includeNonLocks && !isLockShaped(r)) {
            nonLockHashes_.insert(keyHash(r.key));
            continue;
        }
        // Not there at the first scan: seen arriving, unless only newly read.
        if (coveredBy(coveredBefore_, r)) r.appearedWhileWatching = true;
        keepChanged(table_, std::move(r), update);
    }
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
    for (auto& r : scanner_->readKeys(keys, &vanished, &types,
                                      options_.handOffRedirects ? &update.redirected : nullptr)) {
        if (seenArriving(r)) r.appearedWhileWatching = true;
        keepChanged(table_, std::move(r), update);
    }
    for (auto& key : vanished)
        if (table_.remove(key)) update.removed.push_back(std::move(key));
    return update;
}

std::map<int, std::vector<std::string>> LockWatch::giveUpSlots(const std::set<int>& slots) {
    std::map<int, std::vector<std::string>> keys;
    for (const auto& key : table_.keys())
        if (const int slot = keyHashSlot(key); slots.count(slot)) keys[slot].push_back(key);
    for (const auto& [slot, given] : keys)
        for (const auto& key : given) table_.remove(key);
    return keys;
}

WatchUpdate LockWatch::adoptSlot(int slot, const std::vector<std::string>& known) {
    WatchUpdate update;
    update.at = SteadyClock::now();
    std::vector<std::string> keys = known;
    try {  // keys of the slot the old owner had not read yet (or not as locks)
        for (auto& key : keysInSlot(connection_, slot, options_.scan.patterns))
            if (std::find(known.begin(), known.end(), key) == known.end())
                keys.push_back(std::move(key));
    } catch (const ReplyError&) {
        // CLUSTER GETKEYSINSLOT denied: the known keys now, the sweep finds the others.
    }
    std::vector<std::string> vanished;
    for (auto& r : scanner_->readKeys(keys, &vanished, nullptr,
                                      options_.handOffRedirects ? &update.redirected : nullptr)) {
        if (!options_.includeNonLocks && !isLockShaped(r)) continue;
        keepChanged(table_, std::move(r), update);
    }
    for (auto& key : vanished)  // released while it moved: gone here too
        if (std::find(known.begin(), known.end(), key) != known.end())
            update.removed.push_back(std::move(key));
    judge(update.changed);
    return update;
}

WatchUpdate LockWatch::adoptSlot(int slot, std::vector<LockRecord> given) {
    std::vector<std::string> keys;
    keys.reserve(given.size());
    for (auto& r : given) {
        keys.push_back(r.key);
        if (!table_.find(r.key)) table_.observe(std::move(r));  // the history it had there
    }
    WatchUpdate update = adoptSlot(slot, keys);
    for (const auto& key : update.removed) table_.remove(key);  // released while it moved
    std::set<std::string_view> shown;
    for (const auto& r : update.changed) shown.insert(r.key);
    for (const auto& key : keys)  // read unchanged: still a row to move
        if (const LockRecord* r = table_.find(key); r && !shown.count(key))
            update.changed.push_back(*r);
    return update;
}

void LockWatch::refreshRecords(std::vector<LockRecord> records, std::vector<std::string> gone,
                               WatchUpdate& update) {
    for (auto& key : gone)
        if (table_.remove(key)) update.removed.push_back(std::move(key));
    for (auto& r : records) {
        bool changed = false;
        const LockRecord& merged = table_.merge(std::move(r), changed);
        if (!changed) continue;
        std::vector<LockRecord> one{merged};
        refreshFindings(one);
        update.changed.push_back(std::move(one.front()));
    }
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
        if (needRescan_) {
            update = rescan(stop);
            lastRescan_ = start;
            needRescan_ = false;
            // The sweep for new keys starts its next pass a sweep pause after this scan.
            sweep_->restart();
            passCost_ = std::chrono::nanoseconds(0);
            passStartedAt_ = SteadyClock::now();
            // The scan is not the steady state.
            const auto reading = serverTime_->sample(connection_);
            lastServerUsec_ = reading ? std::optional(reading->commandsUsec) : std::nullopt;
            lastServerCpuUsec_ = reading ? reading->cpuUsec : std::nullopt;
            otherReadsSinceStep_ = std::chrono::nanoseconds(0);
            policy_.setSteadySince(passStartedAt_);
        } else {
            update = pollWithinBudget(start);
        }
        judge(update.changed);
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
        const auto started = SteadyClock::now();
        const auto commandsBefore = connection_.commandsSent();
        update = reread(keys);
        meter_.add(SteadyClock::now(), connection_.commandsSent() - commandsBefore, since(started));
        judge(update.changed);
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
