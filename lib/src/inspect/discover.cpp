#include "lockscope/inspect/discover.h"

#include <algorithm>
#include <map>
#include <set>

#include "lockscope/inspect/lock_shape.h"

namespace lockscope::inspect {
namespace {

std::string escapeGlob(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

struct Tally {
    std::uint64_t keys = 0;
    std::set<std::string> kinds;
    std::vector<std::string> examples;
};

}  // namespace

std::string proposePattern(std::string_view key) {
    std::size_t cut = key.find_first_of(":{");
    if (cut == std::string_view::npos || cut == 0) {
        cut = key.find_first_of("-_.");
        if (cut == std::string_view::npos || cut == 0) return escapeGlob(key);
    }
    // The separator ':' stays in the pattern ("job-lock:*"); a '{' starts the wildcard.
    std::size_t keep = key[cut] == '{' ? cut : cut + 1;
    return escapeGlob(key.substr(0, keep)) + "*";
}

bool globMatch(std::string_view p, std::string_view s) {
    // Iterative matcher with backtracking on the last '*', as Redis's stringmatchlen.
    std::size_t pi = 0, si = 0, starP = std::string_view::npos, starS = 0;
    auto matchOne = [&](std::size_t& at, char c) -> bool {  // p[at] is not '*'
        if (p[at] == '?') {
            ++at;
            return true;
        }
        if (p[at] == '\\' && at + 1 < p.size()) {
            bool ok = p[at + 1] == c;
            at += 2;
            return ok;
        }
        if (p[at] == '[') {
            std::size_t j = at + 1;
            bool negate = j < p.size() && p[j] == '^';
            if (negate) ++j;
            bool found = false;
            for (; j < p.size() && p[j] != ']'; ++j) {
                if (p[j] == '\\' && j + 1 < p.size()) {
                    found = found || p[++j] == c;
                } else if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
                    char lo = std::min(p[j], p[j + 2]), hi = std::max(p[j], p[j + 2]);
                    found = found || (c >= lo && c <= hi);
                    j += 2;
                } else {
                    found = found || p[j] == c;
                }
            }
            at = j < p.size() ? j + 1 : j;
            return found != negate;
        }
        bool ok = p[at] == c;
        ++at;
        return ok;
    };
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '*') {
            starP = pi++;
            starS = si;
            continue;
        }
        std::size_t next = pi;
        if (pi < p.size() && matchOne(next, s[si])) {
            pi = next;
            ++si;
            continue;
        }
        if (starP == std::string_view::npos) return false;
        pi = starP + 1;
        si = ++starS;
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

DiscoverResult discover(Connection& connection, const DiscoverOptions& options,
                        std::stop_token stop,
                        const std::function<void(const ScanProgress&)>& onProgress) {
    ScanOptions scan;
    scan.patterns = {"*"};
    scan.count = options.count;
    scan.maxLoad = options.maxLoad;
    scan.maxValueBytes = 300;  // enough to judge a token
    Scanner scanner(connection, scan);
    DiscoverResult result;
    std::map<std::string, Tally> tallies;
    ScanSummary summary = scanner.run(
        [&](ScanBatch& batch) {
            for (const LockRecord& r : batch.records) {
                if (!isLockShaped(r)) continue;
                ++result.lockShaped;
                bool covered =
                    std::any_of(options.currentPatterns.begin(), options.currentPatterns.end(),
                                [&](const std::string& p) { return globMatch(p, r.key); });
                if (covered) {
                    ++result.alreadyCovered;
                    continue;
                }
                Tally& t = tallies[proposePattern(r.key)];
                ++t.keys;
                t.kinds.insert(toString(r.kind));
                if (t.examples.size() < options.maxExamples) t.examples.push_back(r.key);
            }
            if (onProgress) onProgress(batch.progress);
        },
        stop);
    result.keysScanned = summary.progress.keysSeen;
    result.cancelled = summary.cancelled;
    result.notes = summary.notes;
    for (auto& [pattern, t] : tallies)
        result.proposals.push_back(
            {pattern, t.keys, {t.kinds.begin(), t.kinds.end()}, std::move(t.examples)});
    std::stable_sort(
        result.proposals.begin(), result.proposals.end(),
        [](const PatternProposal& a, const PatternProposal& b) { return a.keys > b.keys; });
    return result;
}

}  // namespace lockscope::inspect
