#pragma once
// The subcommands of lockscope-cli register themselves here, one file each, so main()
// stays a dispatcher and adding a command touches no other command's file.

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope::cli {

// Exit codes, documented in --help and the README.
enum ExitCode : int {
    kOk = 0,
    kError = 1,             // any other failure (bad server reply, storage error...)
    kUsage = 2,             // bad command line
    kNotFound = 3,          // the key does not exist
    kTokenChanged = 4,      // the lock changed hands: nothing was deleted or changed
    kPermissionDenied = 5,  // NOPERM from an ACL, or a read-only connection
    kCannotConnect = 6,     // refused, timed out, authentication failed
};

// Parsed command line: --flag value pairs (repeatable), bare --switches and positionals.
class Arguments {
  public:
    // valueFlags: flags that take a value (e.g. "-h", "--pattern"); others are switches.
    Arguments(const std::vector<std::string_view>& args,
              const std::vector<std::string>& valueFlags);

    bool has(const std::string& flag) const;
    std::optional<std::string> value(const std::string& flag) const;  // the last one given
    std::vector<std::string> values(const std::string& flag) const;   // every one, in order
    const std::vector<std::string>& positionals() const { return positionals_; }
    // Throws UsageError for a flag the command does not know.
    void allowOnly(const std::vector<std::string>& known) const;

  private:
    std::multimap<std::string, std::string> values_;
    std::vector<std::string> order_;
    std::vector<std::string> switches_;
    std::vector<std::string> positionals_;
};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Command {
    std::string name;
    std::string synopsis;  // one line for --help
    std::vector<std::string> valueFlags;
    std::function<int(const Arguments&)> run;
};

std::vector<Command>& registry();

struct Registration {
    explicit Registration(Command command) { registry().push_back(std::move(command)); }
};

}  // namespace lockscope::cli
