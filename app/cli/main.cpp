// lockscope-cli: parses the command line and dispatches to the commands in cmd_*.cpp.
#include <cstdio>
#include <string>
#include <vector>

#include "cli_command.h"
#include "command_line.h"
#include "instance_scan.h"
#include "lockscope/errors.h"
#include "secrets.h"

int main(int argc, char** argv) {
    using namespace lockscope::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::fputs(topLevelHelp().c_str(), stderr);
        return kUsage;
    }
    std::string name = "lockscope-cli";
    try {
        CommandLine line = parseCommandLine(args);
        if (scrubPasswordsFromArgv(argc, argv))
            std::fputs(
                "Warning: a password on the command line may be seen by other users "
                "before it is scrubbed; use REDISCLI_AUTH or --askpass instead.\n",
                stderr);
        if (!line.command) return kOk;  // help or version shown
        name += " " + line.command->name;
        return line.command->run(line.args);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "%s: %s\n(%s --help for usage)\n", name.c_str(), e.what(),
                     name.c_str());
        return kUsage;
    } catch (const lockscope::Error& e) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
        return exitCodeFor(e);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
        return kError;
    }
}
