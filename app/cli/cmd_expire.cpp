// lockscope-cli expire KEY --ttl MS --token T: give an orphan a TTL, only if unchanged.
#include "cli_command.h"
#include "connection_flags.h"
#include "lock_action.h"

namespace lockscope::cli {
namespace {

int runExpire(const Arguments& args) {
    std::string key = actionKey(args, "expire");
    auto ttlText = args.value("--ttl");
    if (!ttlText) throw UsageError("expire needs --ttl MS");
    auto ttl =
        std::chrono::milliseconds(parseNumberFlag("--ttl", *ttlText, 1, 365LL * 24 * 3600 * 1000));
    inspect::Holder seen = holderFromFlags(args);
    seen.sawTtl = args.has("--lengthen");
    InspectorFlags flags = parseInspectorFlags(args);
    return runLockAction(flags, "expire", key,
                         [&](inspect::SafeActions& a) { return a.expire(key, seen, ttl); });
}

Registration expire(
    {"expire", "expire KEY --ttl MS --token T",
     "Give an orphan (a lock without a TTL) a TTL, only if it still holds T.",
     actionOptionSpecs({{"--ttl", "MS", "the TTL to set, in milliseconds", "Action"},
                        {"--lengthen", "",
                         "the lock had a TTL when you looked: set the new one only if it is "
                         "longer (without this, a lock that has a TTL now is left alone)",
                         "Action"}}),
     true, "KEY", runExpire});

}  // namespace
}  // namespace lockscope::cli
