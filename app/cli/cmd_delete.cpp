// lockscope-cli delete KEY --force: delete whatever holds the lock, when the operator insists.
#include "cli_command.h"
#include "connection_flags.h"
#include "lock_action.h"

namespace lockscope::cli {
namespace {

int runDelete(const Arguments& args) {
    args.allowOnly(inspectorFlagNames({"--force"}));
    std::string key = actionKey(args, "delete");
    InspectorFlags flags = parseInspectorFlags(args);
    bool force = args.has("--force");
    int code = runLockAction(flags, "delete",
                             [&](inspect::SafeActions& a) { return a.forceDelete(key, force); });
    return force ? code : kUsage;  // refused for want of --force: a usage error
}

Registration del(
    {"delete",
     "delete KEY --force         delete the lock unconditionally, whoever holds it (audited;\n"
     "                           prefer release, which checks the holder)",
     inspectorValueFlags(), runDelete});

}  // namespace
}  // namespace lockscope::cli
