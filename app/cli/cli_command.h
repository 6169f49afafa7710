#pragma once
// The subcommands of lockscope-cli register themselves here, one file each, so main()
// stays a dispatcher and adding a command touches no other command's file. Each command
// declares its options (command_line.cpp turns them into a CLI11 parser); the shared
// connection options are declared once, in connection_flags.cpp.

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lockscope::cli {

// Exit codes, documented in --help and the README.
enum ExitCode : int {
    kOk = 0,
    kError = 1,             // any other failure (bad server reply, storage error...)
    kUsage = 2,             // bad command line
    kNotFound = 3,          // the key does not exist
    kTokenChanged = 4,      // the lock changed hands (or the check failed): nothing was changed
    kPermissionDenied = 5,  // NOPERM from an ACL, or a read-only connection or replica
    kCannotConnect = 6,     // refused, timed out, authentication failed
    kOutcomeUnknown = 7,    // the action was sent but its result is unknown: look at the key
};

// One option of a command. names: CLI11 style, the first is the key commands read it by
// ("-u,--url" is read as "-u"). valueName empty: a switch that takes no value.
struct OptionSpec {
    std::string names;
    std::string valueName;
    std::string help;
    std::string group;  // heading in the command's --help
    std::string key() const { return names.substr(0, names.find(',')); }
};

// Parsed command line: --flag value pairs (repeatable, in order), switches and positionals.
class Arguments {
  public:
    void addValue(const std::string& flag, std::string value);
    void addSwitch(const std::string& flag);
    void addPositional(std::string value) { positionals_.push_back(std::move(value)); }

    bool has(const std::string& flag) const;
    std::optional<std::string> value(const std::string& flag) const;  // the last one given
    std::vector<std::string> values(const std::string& flag) const;   // every one, in order
    const std::vector<std::string>& positionals() const { return positionals_; }

  private:
    std::multimap<std::string, std::string> values_;
    std::vector<std::string> switches_;
    std::vector<std::string> positionals_;
};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Command {
    std::string name;
    std::string synopsis;     // "release KEY --token T": one line, for the top-level help
    std::string description;  // what it does, for COMMAND --help
    std::vector<OptionSpec> options;
    bool connects = false;    // takes the shared connection options
    std::string positionals;  // e.g. "KEY"; empty: the command takes none
    std::function<int(const Arguments&)> run;
};

std::vector<Command>& registry();

struct Registration {
    explicit Registration(Command command) { registry().push_back(std::move(command)); }
};

}  // namespace lockscope::cli
