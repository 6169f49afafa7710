#include "lockscope/inspect/liveness/holder_verdict.h"

#include <algorithm>
#include <array>
#include <utility>

#include "lockscope/inspect/formats/holder_facts.h"

namespace lockscope::inspect {
namespace {

std::optional<WallClock::time_point> latestSeen(const std::vector<Evidence>& evidence,
                                                Verdict pointsTo) {
    std::optional<WallClock::time_point> latest;
    for (const auto& e : evidence)
        if (e.pointsTo == pointsTo && (!latest || e.seenAt > *latest)) latest = e.seenAt;
    return latest;
}

std::optional<WallClock::time_point> earliestSeen(const std::vector<Evidence>& evidence,
                                                  Verdict pointsTo) {
    std::optional<WallClock::time_point> earliest;
    for (const auto& e : evidence)
        if (e.pointsTo == pointsTo && (!earliest || e.seenAt < *earliest)) earliest = e.seenAt;
    return earliest;
}

Verdict decide(const std::vector<Evidence>& evidence) {
    auto lastAlive = latestSeen(evidence, Verdict::Alive);
    auto firstGone = earliestSeen(evidence, Verdict::Gone);
    if (lastAlive && firstGone) return *firstGone > *lastAlive ? Verdict::Gone : Verdict::Alive;
    if (lastAlive) return Verdict::Alive;
    if (firstGone) return Verdict::Gone;
    return Verdict::Unknown;
}

}  // namespace

Evidence evidenceNow(std::string text, Verdict pointsTo) {
    Evidence e;
    e.text = std::move(text);
    e.seenAt = WallClock::now();
    e.pointsTo = pointsTo;
    return e;
}

const char* toString(Verdict verdict) {
    switch (verdict) {
        case Verdict::Alive:
            return "alive";
        case Verdict::Gone:
            return "gone";
        case Verdict::Unknown:
            break;
    }
    return "unknown";
}

std::shared_ptr<const HolderVerdict> sharedVerdict(Verdict verdict, bool fromRecordAlone) {
    auto make = [](Verdict v, bool alone) {
        return std::make_shared<const HolderVerdict>(
            HolderVerdict{.verdict = v, .fromRecordAlone = alone});
    };
    static const std::array<std::shared_ptr<const HolderVerdict>, 6> verdicts{
        make(Verdict::Alive, false), make(Verdict::Gone, false), make(Verdict::Unknown, false),
        make(Verdict::Alive, true),  make(Verdict::Gone, true),  make(Verdict::Unknown, true)};
    return verdicts[static_cast<std::size_t>(verdict) + (fromRecordAlone ? 3 : 0)];
}

HolderVerdict weigh(std::vector<Evidence> evidence) {
    HolderVerdict v;
    v.verdict = decide(evidence);
    for (const auto& e : evidence)
        if (e.pointsTo == v.verdict && e.since && v.verdict != Verdict::Unknown) {
            v.since = e.since;
            break;
        }
    v.evidence = std::move(evidence);
    return v;
}

std::string describeVerdict(const HolderVerdict& v) {
    std::string out = toString(v.verdict);
    if (v.since) out += " since " + formatIsoInstant(*v.since);
    const char* separator = ": ";
    for (const auto& e : v.evidence) {
        out += separator + e.text;
        separator = "; ";
    }
    return out;
}

}  // namespace lockscope::inspect
