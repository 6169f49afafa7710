#include "node_liveness.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "lockscope/inspect/liveness/holder_verdict.h"

namespace lockscope::inspect {
namespace {

LivenessOptions forWatching(LivenessOptions o) {
    o.waitToConfirm = false;  // a watch looks again at its next read; it never sleeps in one
    o.trackRenewals = true;   // renewals across reads are a watch's best evidence
    return o;
}

// The same `since`, as a front end shows it (to the second). Each look converts the steady
// instant a holder was first seen to wall time anew (wallTimeOf), a few microseconds off the
// last look's: compared exactly, every renewed lock of a watch was news at every turn, and
// fifty windows' connections re-sent thousands of untouched rows a second (issue 36).
bool sameSince(const std::optional<WallClock::time_point>& a,
               const std::optional<WallClock::time_point>& b) {
    if (!a || !b) return a.has_value() == b.has_value();
    return std::chrono::abs(*a - *b) < std::chrono::seconds(1);
}

// What a front end shows of a verdict: the verdict, since when, and which way each line
// points. The lines' words change with every look ("renewed 3 s ago"); that is no news.
bool sameStory(const HolderVerdict* a, const HolderVerdict* b) {
    if (a == b) return true;  // the shared verdicts of a table that keeps no evidence
    if (!a || !b) return false;
    if (a->verdict != b->verdict || !sameSince(a->since, b->since) ||
        a->evidence.size() != b->evidence.size())
        return false;
    for (std::size_t i = 0; i < a->evidence.size(); ++i)
        if (a->evidence[i].pointsTo != b->evidence[i].pointsTo ||
            a->evidence[i].warning != b->evidence[i].warning)
            return false;
    return true;
}

}  // namespace

NodeLiveness::NodeLiveness(Connection& connection, LivenessOptions options)
    : connection_(connection),
      options_(forWatching(std::move(options))),
      reader_(connection, options_) {}

// Charged to the watch's load budget (they had added about 1% of a core on top of its 5%
// with 1M locks and 1,000 clients) at their server time as INFO commandstats calibrates it
// (liveness_cost.h), never more than their round trips took.
void NodeLiveness::assess(LockWatch& watch, std::span<const LockRecord* const> rows,
                          const LivenessReader::OnVerdict& onVerdict) {
    const auto started = SteadyClock::now();
    const auto commandsBefore = connection_.commandsSent();
    reader_.judge(rows, onVerdict);
    const auto charge = cost_.charge(connection_, SteadyClock::now() - started, started);
    watch.chargeOtherReads(charge, connection_.commandsSent() - commandsBefore);
}

// The turn judges the table's records where they are: a copy of each of its 5,000 rows per
// turn was a third of the liveness turns' cost over a fleet (allocator and copies).
// A turn judges the rows whose verdict may have changed while their record did not (a holder
// that died, a job that ended): rows settled by their record alone wait for it to change
// (a new holder starts without a verdict; a renewal or a cut lease is a changed row, judged
// after its read), but for a full cycle now and then (kFullCycleEvery cycles, a minute at
// least) and the cycle after a rescan (whose changes no update lists), which judge every row.
std::vector<const LockRecord*> NodeLiveness::nextTurn(const LockWatch& watch,
                                                      const WatchUpdate& update, std::size_t judged,
                                                      SteadyClock::time_point now) {
    const auto& records = watch.table().records();
    if (cursor_.empty()) {  // a new cycle
        fullCycle_ = fullCycle_ || now >= fullCycleDueAt_;
        if (fullCycle_)
            fullCycleDueAt_ =
                now + std::max<SteadyClock::duration>(kFullCycleEvery * options_.reassessEvery,
                                                      kFullCycleAtMostEvery);
        if (!fullCycle_ && quietAt_ == watch.table().generation()) {
            turnInProgress_ = false;
            return {};
        }
        cycleGeneration_ = watch.table().generation();
        cycleUnsettled_ = 0;
    }
    std::unordered_set<std::string_view> judgedNow;  // after the skip: a quiet turn needs none
    for (std::size_t i = 0; i < judged; ++i) judgedNow.insert(update.changed[i].key);
    auto it = cursor_.empty() ? records.begin() : records.upper_bound(cursor_);
    std::vector<const LockRecord*> turn;
    turn.reserve(std::min(options_.maxRowsPerTurn, records.size()));
    for (; it != records.end() && turn.size() < options_.maxRowsPerTurn; ++it) {
        const LockRecord& r = *it->second;
        const bool settled = r.liveness && r.liveness->fromRecordAlone;
        if ((fullCycle_ || !settled) && !judgedNow.contains(it->first)) turn.push_back(&r);
        ++rowsWalked_;
    }
    turnInProgress_ = it != records.end();
    cursor_ = turnInProgress_ && !turn.empty() ? turn.back()->key.str() : std::string{};
    if (!turnInProgress_) fullCycle_ = false;
    return turn;
}

bool NodeLiveness::keep(LockWatch& watch, const LockRecord& current,
                        std::shared_ptr<const HolderVerdict> verdict, bool alreadyShown,
                        WatchUpdate& update) {
    if (!verdict) return false;
    const bool news = !sameStory(current.liveness.get(), verdict.get());
    // Whether the turns may pass the row by: kept, though no front end shows it.
    const bool settling =
        !current.liveness || current.liveness->fromRecordAlone != verdict->fromRecordAlone;
    // A shown row carries its latest evidence; an unshown one changes only with its story
    // (and a bare verdict has no evidence to carry). Unchanged: nothing is written.
    if (!news && !settling && (!alreadyShown || !options_.keepEvidence)) return false;
    // The key outlives the record it views: setLiveness may replace that record.
    const std::string key = current.key;
    const LockRecord* kept = watch.setLiveness(key, std::move(verdict));
    if (news && !alreadyShown && kept) update.changed.push_back(*kept);
    return news;
}

void NodeLiveness::afterRead(LockWatch& watch, WatchUpdate& update, SteadyClock::time_point now) {
    if (!update.connected) return;
    if (update.rescanned) fullCycle_ = true;  // its changes are in no update: judge every row
    // The rows this read changed: judged now, so a new lock comes with its verdict; a first
    // scan of a million keys only up to a turn's worth (the turns judge the rest).
    const std::size_t judged = std::min(update.changed.size(), options_.maxRowsPerTurn);
    std::vector<const LockRecord*> changed;
    changed.reserve(judged);
    for (std::size_t i = 0; i < judged; ++i) changed.push_back(&update.changed[i]);
    // Shown rows (alreadyShown): keep() adds none to update.changed while it is judged.
    assess(watch, changed, [&](std::size_t i, std::shared_ptr<const HolderVerdict> verdict) {
        LockRecord& row = update.changed[i];
        row.liveness = verdict;
        const LockRecord* current = watch.table().find(row.key);
        if (!current) return;
        keep(watch, *current, std::move(verdict), true, update);
        if (const LockRecord* kept = watch.table().find(row.key)) row.findings = kept->findings;
    });
    if (!turnInProgress_ && now < nextTurnAt_) return;
    const std::vector<const LockRecord*> turn = nextTurn(watch, update, judged, now);
    std::size_t settled = 0;
    assess(watch, turn, [&](std::size_t i, std::shared_ptr<const HolderVerdict> verdict) {
        if (verdict && verdict->fromRecordAlone) ++settled;
        keep(watch, *turn[i], std::move(verdict), false, update);
    });
    cycleUnsettled_ += turn.size() - settled;  // a row the reader gave no verdict counts too
    if (turnInProgress_) return;
    nextTurnAt_ = now + options_.reassessEvery;
    const bool quiet = cycleUnsettled_ == 0 && watch.table().generation() == cycleGeneration_;
    quietAt_ = quiet ? std::optional(cycleGeneration_) : std::nullopt;
}

}  // namespace lockscope::inspect
