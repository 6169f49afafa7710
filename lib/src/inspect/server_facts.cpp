#include "lockscope/inspect/server_facts.h"

#include "lockscope/errors.h"

namespace lockscope::inspect {

const char* toString(ServerRole role) {
    switch (role) {
        case ServerRole::Primary:
            return "primary";
        case ServerRole::Replica:
            return "replica";
        case ServerRole::Unknown:
            break;
    }
    return "unknown";
}

const char* toString(KeyspaceEvents e) {
    switch (e) {
        case KeyspaceEvents::Enabled:
            return "enabled";
        case KeyspaceEvents::Disabled:
            return "disabled";
        case KeyspaceEvents::Unknown:
            break;
    }
    return "unknown";
}

bool keyspaceEventsCover(std::string_view flags) {
    auto has = [&](char c) { return flags.find(c) != std::string_view::npos; };
    bool channel = has('K') || has('E');
    bool all = has('A');
    return channel && (all || (has('g') && has('$') && has('x')));
}

ServerFacts probeServer(Connection& c) {
    ServerFacts facts;
    facts.instance = c.endpoint().display();
    try {
        Reply role = c.command({"ROLE"});
        std::string_view kind = role[0].text();
        if (kind == "master") {
            facts.role = ServerRole::Primary;
            facts.connectedReplicas = static_cast<int>(role[2].size());
        } else if (kind == "slave" || kind == "replica") {
            facts.role = ServerRole::Replica;
        }
    } catch (const PermissionError&) {
        facts.notes.push_back("ROLE denied: cannot tell whether the server has replicas");
    }
    try {
        Reply conf = c.command({"CONFIG", "GET", "notify-keyspace-events"});
        facts.notifyFlags = conf.size() >= 2 ? std::string(conf[1].text()) : "";
        facts.keyspaceEvents = keyspaceEventsCover(facts.notifyFlags) ? KeyspaceEvents::Enabled
                                                                      : KeyspaceEvents::Disabled;
    } catch (const PermissionError&) {
        facts.notes.push_back(
            "CONFIG GET denied: cannot tell whether keyspace events are enabled; polling");
    } catch (const ReplyError& e) {
        facts.notes.push_back(std::string("CONFIG GET failed: ") + e.what());
    }
    return facts;
}

}  // namespace lockscope::inspect
