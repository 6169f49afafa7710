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

std::string runIdFromInfo(std::string_view info) {
    constexpr std::string_view kField = "run_id:";
    for (std::size_t at = 0; at < info.size();) {
        std::size_t end = info.find('\n', at);
        if (end == std::string_view::npos) end = info.size();
        std::string_view line = info.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.starts_with(kField)) return std::string(line.substr(kField.size()));
        at = end + 1;
    }
    return {};
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
        facts.notes.emplace_back("ROLE denied: cannot tell whether the server has replicas");
    } catch (const ReplyError& e) {
        if (e.code() != ServerErrorCode::UnknownCommand) throw;
        facts.notes.emplace_back(
            "ROLE is renamed or unknown here: cannot tell whether the server has replicas");
    }
    try {
        Reply conf = c.command({"CONFIG", "GET", "notify-keyspace-events"});
        facts.notifyFlags = conf.size() >= 2 ? std::string(conf[1].text()) : "";
        facts.keyspaceEvents = keyspaceEventsCover(facts.notifyFlags) ? KeyspaceEvents::Enabled
                                                                      : KeyspaceEvents::Disabled;
    } catch (const PermissionError&) {
        facts.notes.emplace_back(
            "CONFIG GET denied: cannot tell whether keyspace events are enabled; polling");
    } catch (const ReplyError& e) {
        facts.notes.push_back(
            e.code() == ServerErrorCode::UnknownCommand
                ? "CONFIG is renamed or unknown here: cannot tell whether keyspace events are "
                  "enabled; polling"
                : std::string("CONFIG GET failed: ") + e.what());
    }
    try {
        // The run_id tells a restarted server (empty, new locks) from a connection that
        // merely dropped; without it a watcher only sees keys vanish.
        facts.runId = runIdFromInfo(c.command({"INFO", "server"}).text());
    } catch (const ProtocolError& e) {  // a malformed reply, read twice; not RESP; too big
        facts.notes.push_back(std::string("INFO unreadable (") + e.what() +
                              "): a server restart is seen only as vanished keys");
    } catch (const PermissionError&) {
        facts.notes.emplace_back("INFO denied: a server restart is seen only as vanished keys");
    } catch (const ReplyError& e) {
        facts.notes.push_back(e.code() == ServerErrorCode::UnknownCommand
                                  ? "INFO is renamed or unknown here: a server restart is seen "
                                    "only as vanished keys"
                                  : std::string("INFO failed: ") + e.what());
    }
    return facts;
}

}  // namespace lockscope::inspect
