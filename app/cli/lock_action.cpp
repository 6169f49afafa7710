#include "lock_action.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "key_text.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"

namespace lockscope::cli {

int exitCodeFor(inspect::ActionOutcome outcome) {
    switch (outcome) {
        case inspect::ActionOutcome::Done:
            return kOk;
        case inspect::ActionOutcome::NotFound:
            return kNotFound;
        case inspect::ActionOutcome::TokenChanged:
        case inspect::ActionOutcome::TtlChanged:
            return kTokenChanged;
        case inspect::ActionOutcome::Unknown:
            return kOutcomeUnknown;
        case inspect::ActionOutcome::Denied:
        case inspect::ActionOutcome::Refused:
            return kPermissionDenied;
    }
    return kError;
}

std::vector<OptionSpec> actionOptionSpecs(std::vector<OptionSpec> own) {
    const std::string group = "Action";
    std::vector<OptionSpec> specs{
        {"--token", "T", "the token seen (the holder)", group},
        {"--fields", "JSON", "a Redisson hash's fields seen, instead of --token", group},
        {"--key-hex", "HEX", "the key in hex, instead of KEY (any bytes)", group},
        {"--token-hex", "HEX", "the token in hex, instead of --token (any bytes)", group},
        {"--escaped", "",
         "KEY and --token are written as the table prints them: \\xNN for each byte that is "
         "not printable ASCII, and for the backslash",
         group},
    };
    specs.insert(specs.begin(), own.begin(), own.end());
    return specs;
}

std::string actionKey(const Arguments& args, const std::string& command) {
    const auto& p = args.positionals();
    if (auto hex = args.value("--key-hex")) {
        if (!p.empty()) throw UsageError("give the KEY or --key-hex, not both");
        std::string key = fromHex(*hex, "--key-hex");
        if (key.empty()) throw UsageError("the KEY is empty");
        return key;
    }
    if (p.empty())
        throw UsageError(command +
                         " needs the KEY of the lock (a KEY starting with \"-\" goes "
                         "after \"--\")");
    if (p.size() > 1)
        throw UsageError(command + " takes one KEY, got " + std::to_string(p.size()) +
                         " arguments");
    if (p[0].empty()) throw UsageError("the KEY is empty");
    return args.has("--escaped") ? fromEscaped(p[0], "KEY") : p[0];
}

inspect::Holder holderFromFlags(const Arguments& args) {
    auto token = args.value("--token");
    if (auto hex = args.value("--token-hex")) {
        if (token) throw UsageError("give --token or --token-hex, not both");
        token = fromHex(*hex, "--token-hex");
    } else if (token && args.has("--escaped")) {
        token = fromEscaped(*token, "--token");
    }
    auto fields = args.value("--fields");
    if (token && fields)
        throw UsageError("give --token (a string lock) or --fields (a hash lock), not both");
    if (token) return inspect::Holder::ofToken(*token);
    if (!fields)
        throw UsageError("the holder you saw is needed: --token T (or --fields JSON for a hash)");
    inspect::Holder h;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*fields);
    } catch (const nlohmann::json::exception&) {
        throw UsageError(R"(--fields takes a JSON object like {"<uuid>:1":"1"})");
    }
    if (!j.is_object() || j.empty())
        throw UsageError("--fields takes a non-empty JSON object of field: value");
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_string())
            h.fields.push_back({it.key(), it.value().get<std::string>()});
        else if (it.value().is_number_integer())
            h.fields.push_back({it.key(), std::to_string(it.value().get<long long>())});
        else
            throw UsageError("--fields values must be strings or integers");
    }
    return h;
}

int runLockAction(const InspectorFlags& flags, const std::string& command, const std::string& key,
                  const std::function<inspect::ActionResult(inspect::SafeActions&)>& act) {
    return runConnectedAction(
        flags, command, key, [&](Connection& c, inspect::AuditLog& audit, inspect::ClusterRouter&) {
            inspect::SafeActions actions(c, &audit);
            return act(actions);
        });
}

int runConnectedAction(const InspectorFlags& flags, const std::string& command,
                       const std::string& key,
                       const std::function<inspect::ActionResult(Connection&, inspect::AuditLog&,
                                                                 inspect::ClusterRouter&)>& act) {
    if (flags.endpoints.size() != 1)
        throw UsageError(command + " acts on one server: give one -u URL");
    inspect::AuditLog audit(flags.auditLogPath);
    inspect::ClusterRouter router(flags.endpoints[0], connectionOptions(flags, false),
                                  flags.clusterAddressing);
    inspect::ActionResult result;
    router.onKey(
        key, [&](Connection& c) { result = act(c, audit, router); },
        [&](Connection& c) {
            if (!c.isReadOnly()) inspect::preloadActionScripts(c);
        });
    std::fprintf(result.ok() ? stdout : stderr, "%s%s\n",
                 result.ok() ? "" : ("lockscope-cli " + command + ": ").c_str(),
                 result.message.c_str());
    if (!result.auditProblem.empty()) {
        // The action happened as printed above; only its record is missing.
        std::fprintf(stderr, "lockscope-cli %s: the result above is not in the audit log: %s\n",
                     command.c_str(), result.auditProblem.c_str());
        return result.ok() ? kError : exitCodeFor(result.outcome);
    }
    return exitCodeFor(result.outcome);
}

}  // namespace lockscope::cli
