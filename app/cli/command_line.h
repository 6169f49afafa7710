#pragma once
// lockscope-cli's command line, parsed with CLI11 from what the commands declare:
//   lockscope-cli [connection options] COMMAND [options] [--] [ARGS]
// Connection options go before or after the command; "--" ends the options (a key may start
// with "-"); --help and --version work anywhere; every usage error is a UsageError (exit 2).

#include <optional>
#include <string>
#include <vector>

#include "cli_command.h"

namespace lockscope::cli {

struct CommandLine {
    const Command* command = nullptr;  // the command to run; null when help or version was shown
    Arguments args;
};

// Parses args (argv without the program name). Prints the help or the version to stdout when
// asked and returns no command. Throws UsageError for anything it cannot accept.
CommandLine parseCommandLine(const std::vector<std::string>& args);

// The top-level help: one synopsis per command, the connection options, the exit codes.
std::string topLevelHelp();

}  // namespace lockscope::cli
