#include "lockscope/inspect/keyspace_follower.h"

#include <unordered_set>

#include "batch_annotator.h"
#include "lockscope/errors.h"

namespace lockscope::inspect {

KeyspaceFollower::KeyspaceFollower(Connection subscriber, const std::vector<std::string>& patterns)
    : connection_(std::move(subscriber)),
      channelPrefix_("__keyspace@" + std::to_string(connection_.endpoint().db) + "__:") {
    const std::string where = connection_.endpoint().display();
    for (const auto& pattern : patterns) {
        std::string channel = channelPrefix_ + pattern;
        std::string_view argv[] = {"PSUBSCRIBE", channel};
        connection_.send(argv);
    }
    connection_.flush();
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        Reply r = connection_.receive();
        if (r.isError()) throwReplyError("PSUBSCRIBE", where, r.text());
    }
}

std::vector<std::string> KeyspaceFollower::poll(std::chrono::milliseconds wait) {
    std::vector<std::string> keys;
    std::unordered_set<std::string> seen;
    if (!connection_.waitForReply(wait)) return keys;
    // Everything that has arrived, bounded so a storm of events cannot hold the caller.
    for (int n = 0; n < 10000; ++n) {
        Reply message = connection_.receive();
        if (message.size() == 4 && message[0].text() == "pmessage") {
            std::string_view channel = message[2].text();
            if (channel.starts_with(channelPrefix_)) {
                std::string key(channel.substr(channelPrefix_.size()));
                if (seen.insert(key).second) keys.push_back(std::move(key));
            }
        }
        if (!connection_.waitForReply(std::chrono::milliseconds(0))) break;
    }
    return keys;
}

}  // namespace lockscope::inspect
