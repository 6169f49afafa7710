// lockscope-cli delete KEY --force: delete whatever holds the lock, when the operator insists.
#include "cli_command.h"
#include "connection_flags.h"
#include "lock_action.h"

namespace lockscope::cli {
namespace {

int runDelete(const Arguments& args) {
    std::string key = actionKey(args, "delete");
    InspectorFlags flags = parseInspectorFlags(args);
    bool force = args.has("--force");
    int code = runLockAction(flags, "delete", key,
                             [&](inspect::SafeActions& a) { return a.forceDelete(key, force); });
    return force ? code : kUsage;  // refused for want of --force: a usage error
}

Registration del({"delete",
                  "delete KEY --force",
                  "Delete the lock unconditionally, whoever holds it (audited; prefer release, "
                  "which checks the holder).",
                  {{"--force", "", "confirm the unconditional delete", "Action"},
                   {"--key-hex", "HEX", "the key in hex, instead of KEY (any bytes)", "Action"},
                   {"--escaped", "", "KEY is written as the table prints it (\\xNN)", "Action"}},
                  true,
                  "KEY",
                  runDelete});

}  // namespace
}  // namespace lockscope::cli
