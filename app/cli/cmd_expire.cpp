// lockscope-cli expire KEY --ttl MS --token T: give an orphan a TTL, only if unchanged.
#include "cli_command.h"
#include "connection_flags.h"
#include "lock_action.h"

namespace lockscope::cli {
namespace {

int runExpire(const Arguments& args) {
    args.allowOnly(inspectorFlagNames({"--token", "--fields", "--ttl"}));
    std::string key = actionKey(args, "expire");
    auto ttlText = args.value("--ttl");
    if (!ttlText) throw UsageError("expire needs --ttl MS");
    auto ttl =
        std::chrono::milliseconds(parseNumberFlag("--ttl", *ttlText, 1, 365LL * 24 * 3600 * 1000));
    inspect::Holder seen = holderFromFlags(args);
    InspectorFlags flags = parseInspectorFlags(args);
    return runLockAction(flags, "expire",
                         [&](inspect::SafeActions& a) { return a.expire(key, seen, ttl); });
}

Registration expire({"expire",
                     "expire KEY --ttl MS --token T\n"
                     "                           set a TTL on a lock (an orphan without one) only "
                     "if it still holds T",
                     inspectorValueFlags({"--token", "--fields", "--ttl"}), runExpire});

}  // namespace
}  // namespace lockscope::cli
