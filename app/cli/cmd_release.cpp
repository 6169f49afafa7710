// lockscope-cli release KEY --token T: delete the lock only if it is still held by T.
#include "cli_command.h"
#include "connection_flags.h"
#include "lock_action.h"

namespace lockscope::cli {
namespace {

int runRelease(const Arguments& args) {
    std::string key = actionKey(args, "release");
    inspect::Holder seen = holderFromFlags(args);
    InspectorFlags flags = parseInspectorFlags(args);
    return runLockAction(flags, "release", key,
                         [&](inspect::SafeActions& a) { return a.release(key, seen); });
}

Registration release(
    {"release", "release KEY --token T",
     "Delete the lock only if it still holds token T (a Redisson hash: --fields JSON); exit 4 "
     "and nothing deleted if it changed hands.",
     actionOptionSpecs(), true, "KEY", runRelease});

}  // namespace
}  // namespace lockscope::cli
