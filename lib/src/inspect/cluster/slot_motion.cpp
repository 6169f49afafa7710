#include "slot_motion.h"

#include <charconv>
#include <sstream>

#include "lockscope/inspect/discover.h"

namespace lockscope::inspect {
namespace {

// "[5461->-<id>]" or "[5461-<-<id>]".
std::optional<SlotMotion> parseMotion(std::string_view token, const std::string& myId) {
    if (token.size() < 6 || token.front() != '[' || token.back() != ']') return std::nullopt;
    token = token.substr(1, token.size() - 2);
    auto arrow = token.find("->-");
    bool migrating = arrow != std::string_view::npos;
    if (!migrating) arrow = token.find("-<-");
    if (arrow == std::string_view::npos) return std::nullopt;
    SlotMotion m;
    auto [end, ec] = std::from_chars(token.data(), token.data() + arrow, m.slot);
    if (ec != std::errc() || end != token.data() + arrow || m.slot < 0 || m.slot >= kClusterSlots)
        return std::nullopt;
    std::string other(token.substr(arrow + 3));
    m.fromId = migrating ? myId : other;
    m.toId = migrating ? other : myId;
    return m;
}

}  // namespace

std::vector<SlotMotion> slotsInMotion(Connection& node) {
    Reply nodes = node.command({"CLUSTER", "NODES"});
    std::istringstream lines{std::string(nodes.text())};
    std::string line;
    std::vector<SlotMotion> motions;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;) w.push_back(word);
        if (w.size() < 3 || w[2].find("myself") == std::string::npos) continue;
        for (std::size_t i = 8; i < w.size(); ++i)
            if (auto m = parseMotion(w[i], w[0])) motions.push_back(*m);
    }
    return motions;
}

std::vector<SlotMotion> ownerChanges(const ClusterTopology& before, const ClusterTopology& after) {
    std::vector<SlotMotion> changes;
    for (int slot = 0; slot < kClusterSlots; ++slot) {
        const ClusterNode* was = before.ownerOfSlot(slot);
        const ClusterNode* is = after.ownerOfSlot(slot);
        std::string wasId = was ? was->id : "", isId = is ? is->id : "";
        if (wasId != isId) changes.push_back({slot, wasId, isId});
    }
    return changes;
}

std::vector<std::string> keysInSlot(Connection& node, int slot,
                                    const std::vector<std::string>& patterns) {
    const std::string s = std::to_string(slot);
    long long count = node.command({"CLUSTER", "COUNTKEYSINSLOT", s}).integer();
    std::vector<std::string> keys;
    if (count <= 0) return keys;
    Reply all = node.command({"CLUSTER", "GETKEYSINSLOT", s, std::to_string(count)});
    for (std::size_t i = 0; i < all.size(); ++i) {
        std::string_view key = all[i].text();
        for (const auto& p : patterns)
            if (globMatch(p, key)) {
                keys.emplace_back(key);
                break;
            }
    }
    return keys;
}

}  // namespace lockscope::inspect
