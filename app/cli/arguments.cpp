#include <algorithm>
#include <cctype>

#include "cli_command.h"

namespace lockscope::cli {

std::vector<Command>& registry() {
    static std::vector<Command> commands;
    return commands;
}

Arguments::Arguments(const std::vector<std::string_view>& args,
                     const std::vector<std::string>& valueFlags) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg(args[i]);
        if (arg.size() > 1 && arg[0] == '-' &&
            !(arg.size() > 1 && std::isdigit(static_cast<unsigned char>(arg[1])))) {
            std::string name = arg, inlineValue;
            bool hasInline = false;
            if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
                name = arg.substr(0, eq);
                inlineValue = arg.substr(eq + 1);
                hasInline = true;
            }
            bool takesValue =
                std::find(valueFlags.begin(), valueFlags.end(), name) != valueFlags.end();
            if (takesValue) {
                if (!hasInline) {
                    if (i + 1 >= args.size()) throw UsageError(name + " needs a value");
                    inlineValue = std::string(args[++i]);
                }
                values_.emplace(name, inlineValue);
            } else {
                if (hasInline) throw UsageError(name + " takes no value");
                switches_.push_back(name);
            }
            order_.push_back(name);
        } else {
            positionals_.push_back(arg);
        }
    }
}

bool Arguments::has(const std::string& flag) const {
    return values_.count(flag) ||
           std::find(switches_.begin(), switches_.end(), flag) != switches_.end();
}

std::optional<std::string> Arguments::value(const std::string& flag) const {
    std::optional<std::string> last;
    auto [from, to] = values_.equal_range(flag);
    for (auto it = from; it != to; ++it) last = it->second;
    return last;
}

std::vector<std::string> Arguments::values(const std::string& flag) const {
    std::vector<std::string> out;
    auto [from, to] = values_.equal_range(flag);
    for (auto it = from; it != to; ++it) out.push_back(it->second);
    return out;
}

void Arguments::allowOnly(const std::vector<std::string>& known) const {
    for (const auto& flag : order_)
        if (std::find(known.begin(), known.end(), flag) == known.end())
            throw UsageError("unknown option " + flag);
}

}  // namespace lockscope::cli
