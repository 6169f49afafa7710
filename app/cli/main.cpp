// lockscope-cli: dispatches to the subcommands registered in cmd_*.cpp.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli_command.h"
#include "lockscope/errors.h"
#include "lockscope/version.h"

namespace {

using namespace lockscope::cli;

void printUsage(std::FILE* out) {
    std::fputs(
        "usage: lockscope-cli COMMAND [options]    (lockscope-cli COMMAND --help for details)\n"
        "       lockscope-cli --version\n\n",
        out);
    for (const auto& c : registry()) std::fprintf(out, "  %s\n", c.synopsis.c_str());
    std::fputs(
        "\nexit codes: 0 ok, 1 error, 2 bad usage, 3 key not found, 4 token changed (nothing\n"
        "deleted), 5 permission denied or read-only, 6 cannot connect\n",
        out);
}

int exitCodeFor(const lockscope::Error& e) {
    switch (e.kind()) {
        case lockscope::ErrorKind::ConnectionRefused:
        case lockscope::ErrorKind::Timeout:
        case lockscope::ErrorKind::ConnectionLost:
        case lockscope::ErrorKind::Protocol:
        case lockscope::ErrorKind::Authentication:
            return kCannotConnect;
        case lockscope::ErrorKind::PermissionDenied:
        case lockscope::ErrorKind::ReadOnly:
            return kPermissionDenied;
        case lockscope::ErrorKind::InvalidArgument:
            return kUsage;
        default:
            return kError;
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "--version") {
        std::printf("lockscope-cli %s\n", lockscope::kVersion);
        return kOk;
    }
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(stdout);
        return args.empty() ? kUsage : kOk;
    }
    for (const auto& command : registry()) {
        if (command.name != args[0]) continue;
        try {
            Arguments parsed({args.begin() + 1, args.end()}, command.valueFlags);
            if (parsed.has("--help")) {
                std::printf("%s\n", command.synopsis.c_str());
                return kOk;
            }
            return command.run(parsed);
        } catch (const UsageError& e) {
            std::fprintf(stderr, "lockscope-cli %s: %s\n", command.name.c_str(), e.what());
            return kUsage;
        } catch (const lockscope::Error& e) {
            std::fprintf(stderr, "lockscope-cli %s: %s\n", command.name.c_str(), e.what());
            return exitCodeFor(e);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "lockscope-cli %s: %s\n", command.name.c_str(), e.what());
            return kError;
        }
    }
    std::fprintf(stderr, "lockscope-cli: unknown command \"%s\"\n\n", std::string(args[0]).c_str());
    printUsage(stderr);
    return kUsage;
}
