#include "key_reads.h"

#include <map>

#include "inspect/annotator_replies.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/liveness/liveness_reader.h"

namespace lockscope::inspect {

bool KeyReplies::complete() const {
    for (std::size_t i = 0; i < replies.size(); ++i)
        if (unread[i] || replies[i].isError()) return false;
    return true;
}

std::string KeyReplies::firstProblem() const {
    if (!why.empty()) return why.front();
    for (const auto& r : replies)
        if (r.isError()) return std::string(r.text());
    return {};
}

KeyReplies ConnectionKeyReads::read(const std::vector<std::vector<std::string>>& commands) {
    KeyReplies out;
    out.replies = connection_.pipeline(commands);
    out.unread.assign(out.replies.size(), false);
    return out;
}

KeyReplies RoutedKeyReads::read(const std::vector<std::vector<std::string>>& commands) {
    KeyReplies out;
    out.replies.resize(commands.size());
    out.unread.assign(commands.size(), true);
    std::map<const ClusterNode*, std::vector<std::size_t>> byOwner;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        const int slot = commands[i].size() > 1 ? keyHashSlot(commands[i][1]) : 0;
        if (const ClusterNode* owner = router_->topology().ownerOfSlot(slot))
            byOwner[owner].push_back(i);
        else
            out.why.push_back("slot " + std::to_string(slot) + ": no node serves it");
    }
    for (const auto& [owner, indexes] : byOwner) {
        const Endpoint at = router_->endpointOf(*owner);
        std::vector<std::vector<std::string>> mine;
        for (std::size_t i : indexes) mine.push_back(commands[i]);
        try {
            auto replies = router_->connectionTo(at).pipeline(mine);
            for (std::size_t j = 0; j < indexes.size(); ++j) {
                // The slot moved since the topology was asked: ask again next time.
                if (movedAway(replies[j])) router_->noteRedirect();
                out.replies[indexes[j]] = std::move(replies[j]);
                out.unread[indexes[j]] = false;
            }
        } catch (const Error& e) {
            out.why.push_back(at.display() + ": " + e.what());
        }
    }
    return out;
}

std::shared_ptr<KeyReads> keyReadsThrough(std::shared_ptr<ClusterRouter> router) {
    return std::make_shared<RoutedKeyReads>(std::move(router));
}

}  // namespace lockscope::inspect
