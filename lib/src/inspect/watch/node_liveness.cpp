#include "node_liveness.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <iterator>
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
    if (!a || !b) return a == b;
    if (a->verdict != b->verdict || !sameSince(a->since, b->since) ||
        a->evidence.size() != b->evidence.size())
        return false;
    for (std::size_t i = 0; i < a->evidence.size(); ++i)
        if (a->evidence[i].pointsTo != b->evidence[i].pointsTo ||
            a->evidence[i].warning != b->evidence[i].warning)
            return false;
    return true;
}

// The verdict alone, without its evidence: one shared object per verdict.
std::shared_ptr<const HolderVerdict> bare(Verdict verdict) {
    static const std::array<std::shared_ptr<const HolderVerdict>, 3> verdicts{
        std::make_shared<const HolderVerdict>(HolderVerdict{.verdict = Verdict::Alive}),
        std::make_shared<const HolderVerdict>(HolderVerdict{.verdict = Verdict::Gone}),
        std::make_shared<const HolderVerdict>(HolderVerdict{.verdict = Verdict::Unknown})};
    return verdicts[static_cast<std::size_t>(verdict)];
}

}  // namespace

NodeLiveness::NodeLiveness(Connection& connection, LivenessOptions options)
    : connection_(connection),
      options_(forWatching(std::move(options))),
      reader_(connection, options_) {}

// Charged to the watch's load budget (they had added about 1% of a core on top of its 5%
// with 1M locks and 1,000 clients) at their server time as INFO commandstats calibrates it
// (liveness_cost.h), never more than their round trips took.
void NodeLiveness::assess(LockWatch& watch, std::vector<LockRecord>& rows) {
    const auto started = SteadyClock::now();
    const auto commandsBefore = connection_.commandsSent();
    reader_.assess(rows);
    const auto charge = cost_.charge(connection_, SteadyClock::now() - started, started);
    watch.chargeOtherReads(charge, connection_.commandsSent() - commandsBefore);
}

std::vector<LockRecord> NodeLiveness::nextTurn(const LockWatch& watch, const WatchUpdate& update,
                                               std::size_t judged) {
    std::unordered_set<std::string_view> judgedNow;
    for (std::size_t i = 0; i < judged; ++i) judgedNow.insert(update.changed[i].key);
    const auto& records = watch.table().records();
    auto it = cursor_.empty() ? records.begin() : records.upper_bound(cursor_);
    std::vector<LockRecord> turn;
    // Its size at once: grown by doubling, a turn of 5,000 rows moved each row up to 12
    // times through ever larger blocks (8% of the exporter's samples over 200k locks).
    turn.reserve(std::min(options_.maxRowsPerTurn, records.size()));
    for (; it != records.end() && turn.size() < options_.maxRowsPerTurn; ++it)
        if (!judgedNow.contains(it->first)) turn.push_back(*it->second);
    turnInProgress_ = it != records.end();
    cursor_ = turnInProgress_ && !turn.empty() ? turn.back().key : std::string{};
    return turn;
}

bool NodeLiveness::keep(LockWatch& watch, const LockRecord& judged, bool alreadyShown,
                        WatchUpdate& update) {
    const LockRecord* before = watch.table().find(judged.key);
    if (!before) return false;
    auto verdict = options_.keepEvidence || !judged.liveness ? judged.liveness
                                                             : bare(judged.liveness->verdict);
    const bool news = !sameStory(before->liveness.get(), verdict.get());
    // A shown row carries its latest evidence; an unshown one changes only with its story
    // (and a bare verdict has no evidence to carry).
    if (!news && (!alreadyShown || !options_.keepEvidence)) return false;
    const LockRecord* kept = watch.setLiveness(judged.key, std::move(verdict));
    if (news && !alreadyShown && kept) update.changed.push_back(*kept);
    return news;
}

void NodeLiveness::afterRead(LockWatch& watch, WatchUpdate& update, SteadyClock::time_point now) {
    if (!update.connected) return;
    // The rows this read changed: judged now, so a new lock comes with its verdict; a first
    // scan of a million keys only up to a turn's worth (the turns judge the rest).
    const std::size_t judged = std::min(update.changed.size(), options_.maxRowsPerTurn);
    std::vector<LockRecord> later(std::make_move_iterator(update.changed.begin() + judged),
                                  std::make_move_iterator(update.changed.end()));
    update.changed.resize(judged);
    assess(watch, update.changed);
    for (auto& r : update.changed) {
        if (!r.liveness) continue;
        keep(watch, r, true, update);
        if (const LockRecord* kept = watch.table().find(r.key)) r.findings = kept->findings;
    }
    std::move(later.begin(), later.end(), std::back_inserter(update.changed));
    if (!turnInProgress_ && now < nextTurnAt_) return;
    std::vector<LockRecord> turn = nextTurn(watch, update, judged);
    assess(watch, turn);
    for (const auto& r : turn)
        if (r.liveness) keep(watch, r, false, update);
    if (!turnInProgress_) nextTurnAt_ = now + options_.reassessEvery;
}

}  // namespace lockscope::inspect
