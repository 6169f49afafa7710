#include "lockscope/sim/explorer.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "explore_properties.h"
#include "lockscope/errors.h"

namespace lockscope::sim {

namespace {

constexpr VirtualMs kPauseMenu[] = {500, 5 * kSecond, 15 * kSecond, 40 * kSecond};
constexpr int kMoments = 10;

// Up to kMoments distinct beat times of the story as written, spread over it: where a
// fault can land.
std::vector<VirtualMs> moments(const Recording& recording) {
    std::set<VirtualMs> distinct;
    for (const Beat& b : recording.beats) distinct.insert(b.time);
    std::vector<VirtualMs> all(distinct.begin(), distinct.end());
    if (static_cast<int>(all.size()) <= kMoments) return all;
    std::vector<VirtualMs> picked;
    picked.reserve(kMoments);
    for (int i = 0; i < kMoments; ++i) picked.push_back(all[i * (all.size() - 1) / (kMoments - 1)]);
    return picked;
}

// One fault of the menu: a client paused or crashed (a fork of the story), or a server or
// network fault (one of the story's parameters set to another value).
struct MenuFault {
    std::optional<Replay::Fork> fork;
    std::string param;
    std::int64_t value = 0;
    std::string text;

    // Two faults combine unless they hit the same instance or set the same parameter.
    bool clashesWith(const MenuFault& other) const {
        if (fork && other.fork) return fork->instance == other.fork->instance;
        return !fork && !other.fork && param == other.param;
    }
};

std::string describeFork(const Replay::Fork& f) {
    return f.crash ? f.instance + " crashes at " + formatVirtualTime(f.at)
                   : f.instance + " paused " + formatDuration(f.duration) + " at " +
                         formatVirtualTime(f.at);
}

std::string shownValue(const ServerFault& fault, std::int64_t value) {
    switch (fault.shown) {
        case ServerFault::Shown::Time:
            return formatVirtualTime(value);
        case ServerFault::Shown::Duration:
            return formatDuration(value);
        case ServerFault::Shown::Number:
            break;
    }
    return std::to_string(value);
}

// The story's server faults at the values it declares (or its moments), leaving out the
// value the story already has: that is the story as written.
std::vector<MenuFault> serverFaultMenu(const Replay& story) {
    std::vector<MenuFault> menu;
    for (const ServerFault& fault : story.scenario().serverFaults) {
        const std::vector<std::int64_t> values =
            fault.values.empty() ? moments(story.recording()) : fault.values;
        const std::int64_t current = story.params().get(fault.param);
        for (std::int64_t value : values) {
            if (value == current) continue;
            std::string text = fault.text;
            text.replace(text.find("%1"), 2, shownValue(fault, value));
            menu.push_back({std::nullopt, fault.param, value, text});
        }
    }
    return menu;
}

// The server faults first: the pairs then start with a server fault and every other fault,
// so a small budget still tries a failover together with a paused client.
std::vector<MenuFault> faultMenu(const Replay& story) {
    std::vector<MenuFault> menu = serverFaultMenu(story);
    for (const std::string& instance : story.instances())
        for (VirtualMs at : moments(story.recording())) {
            menu.push_back({Replay::Fork{true, instance, at, 0}, {}, 0, {}});
            for (VirtualMs d : kPauseMenu)
                menu.push_back({Replay::Fork{false, instance, at, d}, {}, 0, {}});
        }
    for (MenuFault& f : menu)
        if (f.fork) f.text = describeFork(*f.fork);
    return menu;
}

std::string describeSchedule(const std::vector<MenuFault>& faults) {
    if (faults.empty()) return "the story as written (no added fault)";
    std::string text;
    for (const auto& f : faults) text += (text.empty() ? "" : ", then ") + f.text;
    return text;
}

// Runs one schedule; null when the menu's combination cannot happen (a crashed instance
// paused later, a fault after the story's end, a value out of the parameter's range).
std::unique_ptr<Replay> runSchedule(const ScenarioFile& base,
                                    const std::vector<MenuFault>& faults) {
    ScenarioFile file = base;
    std::vector<Replay::Fork> forks;
    for (const MenuFault& f : faults) {
        if (f.fork) {
            forks.push_back(*f.fork);
            continue;
        }
        for (auto& [name, value] : file.params)
            if (name == f.param) value = f.value;
    }
    std::sort(forks.begin(), forks.end(),
              [](const Replay::Fork& a, const Replay::Fork& b) { return a.at < b.at; });
    file.forks.insert(file.forks.end(), forks.begin(), forks.end());
    file.beat = -1;
    try {
        return openScenario(file);
    } catch (const InvalidArgumentError&) {
        return nullptr;
    }
}

struct Candidate {
    std::size_t faults = 0;
    std::size_t beats = 0;
    auto key() const { return std::tie(faults, beats); }
};

}  // namespace

const char* toString(Property property) {
    switch (property) {
        case Property::MutualExclusion:
            return "mutual exclusion";
        case Property::StaleWriteAccepted:
            return "stale write accepted";
        case Property::DuplicateSideEffect:
            return "duplicate side effect";
        case Property::StuckLock:
            return "stuck lock";
    }
    return "?";
}

ExploreResult explore(const ScenarioFile& base, int budget) {
    if (budget < 1 || budget > 100'000)
        throw InvalidArgumentError("--budget takes 1 to 100000 schedules, not " +
                                   std::to_string(budget));
    auto story = openScenario(base);
    const std::vector<MenuFault> menu = faultMenu(*story);
    ExploreResult result;
    result.story = base.story;
    result.menu = static_cast<int>(menu.size());
    result.serverFaults = static_cast<int>(
        std::count_if(menu.begin(), menu.end(), [](const MenuFault& f) { return !f.fork; }));
    for (Property p : kProperties) result.properties.push_back({p, 0, std::nullopt, {}});
    std::vector<Candidate> best(result.properties.size());

    auto consider = [&](const std::vector<MenuFault>& faults) {
        if (result.schedules >= budget) {
            result.budgetReached = true;
            return false;
        }
        auto run = runSchedule(base, faults);
        if (!run) return true;
        ++result.schedules;
        for (std::size_t i = 0; i < result.properties.size(); ++i) {
            PropertyResult& pr = result.properties[i];
            if (!breaks(*run, pr.property)) continue;
            ++pr.breaks;
            Candidate c{faults.size(), run->beats().size()};
            if (pr.shortest && c.key() >= best[i].key()) continue;
            best[i] = c;
            pr.shortest = captureScenario(*run);
            pr.shortestText = describeSchedule(faults);
        }
        return true;
    };

    if (!consider({})) return result;
    for (const auto& fault : menu)
        if (!consider({fault})) return result;
    for (std::size_t a = 0; a < menu.size(); ++a)
        for (std::size_t b = a + 1; b < menu.size(); ++b) {
            if (menu[a].clashesWith(menu[b])) continue;
            if (!consider({menu[a], menu[b]})) return result;
        }
    return result;
}

std::string formatExplore(const ExploreResult& r) {
    auto count = [&](Property p) {
        return std::to_string(r.properties[static_cast<int>(p)].breaks);
    };
    std::string text = r.story + ": " + std::to_string(r.schedules) + " schedules, " +
                       count(Property::MutualExclusion) + " break mutual exclusion, " +
                       count(Property::StaleWriteAccepted) + " accept a stale write, " +
                       count(Property::DuplicateSideEffect) + " have a duplicate side effect, " +
                       count(Property::StuckLock) + " leave a lock no one will release";
    const PropertyResult* first = nullptr;
    for (const auto& p : r.properties)
        if (p.shortest && (!first || p.shortest->forks.size() < first->shortest->forks.size()))
            first = &p;
    text += first ? "; shortest: " + first->shortestText + " (" + toString(first->property) + ")"
                  : "; no schedule breaks any of them";
    text += "\n";
    text += "  fault menu: " + std::to_string(r.menu) + " single faults (" +
            (r.serverFaults > 0 ? std::to_string(r.serverFaults) +
                                      " of the servers or the network: the story's own, at other "
                                      "values or moments; then "
                                : std::string()) +
            "each instance crashes, or pauses 500 ms, 5 s, 15 s or 40 s, at up "
            "to 10 moments of the story), then pairs of two of them" +
            (r.budgetReached ? "; stopped at the budget" : "") + "\n";
    for (const auto& p : r.properties) {
        if (!p.shortest) continue;
        text += "  " + std::string(toString(p.property)) + ": " + p.shortestText + "\n    " +
                replayCommandLine(*p.shortest) + "\n";
    }
    return text;
}

}  // namespace lockscope::sim
