#include "lock_table_text.h"

#include "lockscope/duration_text.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/record_json.h"
#include "lockscope/inspect/resource_groups.h"
#include "lockscope/text_format.h"

namespace lockscope::cli {
namespace {

std::string pad(std::string s, std::size_t width) {
    // Width in bytes of printable() output, which is ASCII except for the ellipsis.
    std::size_t shown = 0;
    for (unsigned char c : s) shown += (c & 0xc0) != 0x80;
    if (shown < width) s.append(width - shown, ' ');
    return s;
}

std::string holderText(const inspect::LockRecord& r) {
    if (r.type == inspect::ValueType::Hash) {
        std::string out;
        for (const auto& f : r.fields) {
            if (!out.empty()) out += ", ";
            out += printable(f.field, 44) + "=" + printable(f.value, 8);
            if (out.size() > 60) break;
        }
        return "{" + out + (r.truncated ? ", …}" : "}");
    }
    if (r.type != inspect::ValueType::String) return std::string("(") + toString(r.type) + ")";
    std::string out = printable(r.token, 36);
    if (r.truncated) out += " (" + std::to_string(r.valueBytes) + " B)";
    return out;
}

}  // namespace

std::string formatRemaining(std::int64_t ms) {
    return ms < 0 ? "no TTL" : formatDuration(ms);
}

std::size_t lockTableKeyWidth(const std::vector<const inspect::LockRecord*>& records) {
    std::size_t keyWidth = 12;
    for (const auto* r : records)
        keyWidth = std::max(keyWidth, std::min<std::size_t>(printable(r->key, 48).size(), 50));
    return keyWidth;
}

namespace {

std::string tableLine(bool showInstance, std::size_t keyWidth, std::string instance,
                      std::string key, std::string kind, std::string holder, std::string ttl,
                      std::string fence, const std::string& findings) {
    std::string l;
    if (showInstance) l += pad(std::move(instance), 24) + " ";
    l += pad(std::move(key), keyWidth) + " " + pad(std::move(kind), 16) + " " +
         pad(std::move(holder), 40) + " " + pad(std::move(ttl), 12) + " " +
         pad(std::move(fence), 6) + " " + findings;
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
}

}  // namespace

std::string formatLockTableHeader(bool showInstance, std::size_t keyWidth) {
    return tableLine(showInstance, keyWidth, "INSTANCE", "KEY", "KIND", "HOLDER", "TTL", "FENCE",
                     "FINDINGS");
}

std::string formatLockTableRow(const inspect::LockRecord& r, bool showInstance,
                               std::size_t keyWidth, inspect::SteadyClock::time_point now,
                               bool showLiveness) {
    std::string holder = holderText(r);
    if (showLiveness && r.liveness)
        holder += std::string(" [") + inspect::toString(r.liveness->verdict) + "]";
    std::string findings;
    for (const auto& name : inspect::ruleNames(r.findings))
        findings += (findings.empty() ? "" : ",") + name;
    return tableLine(showInstance, keyWidth, r.instanceName(), printable(r.key, 48),
                     inspect::toString(r.kind), std::move(holder),
                     formatRemaining(r.remainingAt(now)), r.fence ? std::to_string(*r.fence) : "-",
                     findings);
}

std::string formatLockTable(const std::vector<const inspect::LockRecord*>& records,
                            bool showInstance, inspect::SteadyClock::time_point now,
                            bool showLiveness) {
    const std::size_t keyWidth = lockTableKeyWidth(records);
    std::string out = formatLockTableHeader(showInstance, keyWidth);
    for (const auto* r : records)
        out += formatLockTableRow(*r, showInstance, keyWidth, now, showLiveness);
    return out;
}

void printJsonLines(std::FILE* out, const std::vector<const inspect::LockRecord*>& records,
                    inspect::SteadyClock::time_point now) {
    for (const auto* r : records) std::fprintf(out, "%s\n", inspect::toJsonLine(*r, now).c_str());
}

std::string formatSharedResources(const std::vector<inspect::LockRecord>& all) {
    std::string out;
    for (const auto& g : inspect::groupByResource(all)) {
        if (g.instances < 2) continue;
        out += "resource " + printable(g.resource, 60) + " is locked on " +
               std::to_string(g.instances) + " instances" +
               (g.sameHolder ? " by one holder" : " by different holders") + "\n";
    }
    return out;
}

std::string formatRedlockGroup(const inspect::RedlockGroupView& v) {
    std::string out = "resource " + printable(v.resource, 60) + ": ";
    if (v.majority) {
        out += std::to_string(v.agreeing) + " of " + std::to_string(v.nodes.size()) +
               " nodes agree (quorum " + std::to_string(v.quorum) + ") on " +
               printable(*v.token, 36) + ", validity " +
               (v.validityMs < 0    ? std::string("no TTL")
                : v.validityMs == 0 ? std::string("expired")
                                    : formatRemaining(v.validityMs)) +
               "\n";
    } else {
        out += "no majority (best " + std::to_string(v.agreeing) + " of " +
               std::to_string(v.nodes.size()) + ", quorum " + std::to_string(v.quorum) +
               "): expired/no majority, validity 0\n";
    }
    for (const auto& n : v.nodes) {
        std::string l = "  " + pad(n.instance, 24) + " ";
        if (n.state == inspect::RedlockNodeState::Held)
            l += pad(printable(n.key, 48), 24) + " " + pad(printable(*n.token, 36), 36) + " " +
                 formatRemaining(n.pttlMs);
        else
            l += inspect::toString(n.state);
        out += l + "\n";
    }
    return out;
}

}  // namespace lockscope::cli
