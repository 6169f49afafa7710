#include "command_line.h"
#include "lockscope/version.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "connection_flags.h"

namespace lockscope::cli {
namespace {

// The options of one parser level, kept to read their results after parsing.
struct Declared {
    std::string key;
    bool isSwitch = false;
    CLI::Option* option = nullptr;
};

// -h is the host, as in redis-cli: help is --help only, everywhere.
void useLongHelpOnly(CLI::App& app) {
    app.set_help_flag("--help", "print this help and exit");
}

std::vector<Declared> declare(CLI::App& app, const std::vector<OptionSpec>& specs) {
    std::vector<Declared> out;
    for (const auto& spec : specs) {
        Declared d{spec.key(), spec.valueName.empty(), nullptr};
        if (d.isSwitch) {
            d.option = app.add_flag(spec.names, spec.help);
        } else {
            d.option = app.add_option(spec.names, spec.help)
                           ->type_name(spec.valueName)
                           ->allow_extra_args(false)
                           ->take_all();
        }
        if (!spec.group.empty()) d.option->group(spec.group);
        out.push_back(d);
    }
    return out;
}

void collect(const std::vector<Declared>& declared, Arguments& into) {
    for (const auto& d : declared) {
        if (d.isSwitch) {
            if (d.option->count() > 0) into.addSwitch(d.key);
        } else {
            for (const auto& v : d.option->results()) into.addValue(d.key, v);
        }
    }
}

bool anyGiven(const std::vector<Declared>& declared) {
    return std::any_of(declared.begin(), declared.end(),
                       [](const Declared& d) { return d.option->count() > 0; });
}

// A command's help starts with its synopsis, as the top-level help shows it.
class SynopsisFormatter : public CLI::Formatter {
  public:
    std::string make_usage(const CLI::App* app, std::string) const override {
        for (const auto& c : registry())
            if (c.name == app->get_name()) return "usage: lockscope-cli " + c.synopsis + "\n";
        return "";
    }
};

}  // namespace

std::string topLevelHelp() {
    std::string out =
        "usage: lockscope-cli [connection options] COMMAND [options] [--] [ARGS]\n"
        "       lockscope-cli COMMAND --help      the options of one command\n\ncommands:\n";
    for (const auto& c : registry()) out += "  " + c.synopsis + "\n";
    out +=
        "\nconnection options (before or after the command, for list, doctor, watch, release,\n"
        "expire, delete):\n";
    out += inspectorFlagsHelp();
    out +=
        "\n\"--\" ends the options: what follows is the KEY even if it starts with \"-\".\n"
        "\nexit codes: 0 ok, 1 error, 2 bad usage, 3 key not found, 4 the lock changed hands or\n"
        "is no longer the one seen (nothing changed), 5 permission denied or read-only, 6 cannot\n"
        "connect, 7 outcome unknown (the action was sent but its result is not known: look)\n";
    return out;
}

CommandLine parseCommandLine(const std::vector<std::string>& argsIn) {
    // CLI11 2.1 forgets "--" once a subcommand has a positional: split it off here.
    auto dashes = std::find(argsIn.begin(), argsIn.end(), "--");
    std::vector<std::string> options(argsIn.begin(), dashes);
    std::vector<std::string> trailing(dashes == argsIn.end() ? dashes : dashes + 1, argsIn.end());

    CLI::App app("Redis distributed lock inspector", "lockscope-cli");
    useLongHelpOnly(app);
    app.set_version_flag("--version", std::string("lockscope-cli ") + lockscope::kVersion);
    app.require_subcommand(0, 1);
    app.fallthrough();  // --version after the command reaches the top level
    auto global = declare(app, inspectorOptionSpecs());

    struct Sub {
        const Command* command;
        CLI::App* app;
        std::vector<Declared> declared;
        std::vector<std::string> positionals;
    };
    std::vector<Sub> subs;
    subs.reserve(registry().size());
    for (const auto& c : registry()) {
        Sub s{&c, app.add_subcommand(c.name, c.description), {}, {}};
        useLongHelpOnly(*s.app);
        s.app->formatter(std::make_shared<SynopsisFormatter>());
        auto specs = c.options;
        if (c.connects) {
            auto shared = inspectorOptionSpecs();
            specs.insert(specs.end(), shared.begin(), shared.end());
        }
        s.declared = declare(*s.app, specs);
        subs.push_back(std::move(s));
    }
    for (auto& s : subs)
        if (!s.command->positionals.empty())
            s.app
                ->add_option(s.command->positionals, s.positionals,
                             "(after \"--\" if it starts with -)")
                ->expected(0, -1)
                ->type_name("");

    std::vector<std::string> reversed(options.rbegin(), options.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        for (auto& s : subs)
            if (s.app->parsed()) {
                std::fputs(s.app->help().c_str(), stdout);
                return {};
            }
        std::fputs(topLevelHelp().c_str(), stdout);
        return {};
    } catch (const CLI::CallForVersion& v) {
        std::printf("%s\n", v.what());
        return {};
    } catch (const CLI::ParseError& e) {
        throw UsageError(e.what());
    }
    const Sub* chosen = nullptr;
    for (const auto& s : subs)
        if (s.app->parsed()) chosen = &s;
    if (!chosen) throw UsageError("name a COMMAND (lockscope-cli --help lists them)");
    if (anyGiven(global) && !chosen->command->connects)
        throw UsageError(chosen->command->name + " takes no connection options");

    CommandLine out;
    out.command = chosen->command;
    collect(global, out.args);  // before the command's own: a value after the command wins
    collect(chosen->declared, out.args);
    for (const auto& p : chosen->positionals) out.args.addPositional(p);
    if (!trailing.empty() && chosen->command->positionals.empty())
        throw UsageError(chosen->command->name + " takes no arguments after \"--\"");
    for (const auto& p : trailing) out.args.addPositional(p);
    return out;
}

}  // namespace lockscope::cli
