#include "lock_action.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "lockscope/errors.h"

namespace lockscope::cli {

int exitCodeFor(inspect::ActionOutcome outcome) {
    switch (outcome) {
        case inspect::ActionOutcome::Done:
            return kOk;
        case inspect::ActionOutcome::NotFound:
            return kNotFound;
        case inspect::ActionOutcome::TokenChanged:
            return kTokenChanged;
        case inspect::ActionOutcome::Denied:
            return kPermissionDenied;
        case inspect::ActionOutcome::Refused:
            return kPermissionDenied;
    }
    return kError;
}

std::string actionKey(const Arguments& args, const std::string& command) {
    const auto& p = args.positionals();
    if (p.empty()) throw UsageError(command + " needs the KEY of the lock");
    if (p.size() > 1)
        throw UsageError(command + " takes one KEY, got " + std::to_string(p.size()) +
                         " arguments");
    if (p[0].empty()) throw UsageError("the KEY is empty");
    return p[0];
}

inspect::Holder holderFromFlags(const Arguments& args) {
    auto token = args.value("--token");
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
        throw UsageError("--fields takes a JSON object like {\"<uuid>:1\":\"1\"}");
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

int runLockAction(const InspectorFlags& flags, const std::string& command,
                  const std::function<inspect::ActionResult(inspect::SafeActions&)>& act) {
    if (flags.endpoints.size() != 1)
        throw UsageError(command + " acts on one server: give one -u URL");
    inspect::AuditLog audit(flags.auditLogPath);
    Connection c = Connection::open(flags.endpoints[0], connectionOptions(flags, false));
    inspect::SafeActions actions(c, &audit);
    inspect::ActionResult result = act(actions);
    std::fprintf(result.ok() ? stdout : stderr, "%s%s\n",
                 result.ok() ? "" : ("lockscope-cli " + command + ": ").c_str(),
                 result.message.c_str());
    return exitCodeFor(result.outcome);
}

}  // namespace lockscope::cli
