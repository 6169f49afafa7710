#pragma once
// Runs the built lockscope-cli (LOCKSCOPE_CLI) against a fixture server: its exit code, stdout
// and stderr, with the audit log in a temporary directory.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "redis_fixture.h"

namespace lockscope::testing {

struct CliRun {
    int code = -1;
    std::string out, err;
};

inline std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

class CliTest : public RedisTest {
  protected:
    TempDir dir;
    std::string audit = dir.path("audit.jsonl");

    CliRun cli(const std::vector<std::string>& args, const std::string& env = "") {
        std::string cmd =
            "LOCKSCOPE_AUDIT_LOG=" + shellQuote(audit) + " " + env + " " + LOCKSCOPE_CLI;
        for (const auto& a : args) cmd += " " + shellQuote(a);
        cmd += " 2>" + shellQuote(dir.path("stderr"));
        CliRun run;
        std::FILE* p = popen(cmd.c_str(), "r");
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) run.out.append(buf, n);
        int status = pclose(p);
        run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::ifstream e(dir.path("stderr"));
        std::stringstream ss;
        ss << e.rdbuf();
        run.err = ss.str();
        return run;
    }
    std::string url() const { return endpoint().display(); }
    std::vector<nlohmann::json> jsonLines(const std::string& out) {
        std::vector<nlohmann::json> lines;
        std::istringstream in(out);
        std::string line;
        while (std::getline(in, line))
            if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
        return lines;
    }
    std::vector<nlohmann::json> auditLines() {
        std::ifstream in(audit);
        std::stringstream ss;
        ss << in.rdbuf();
        return jsonLines(ss.str());
    }
    // The audit lines that carry a result (an action that was sent also has an intent line).
    std::vector<nlohmann::json> auditResults() {
        std::vector<nlohmann::json> results;
        for (auto& l : auditLines())
            if (l["phase"] == "result") results.push_back(l);
        return results;
    }
};

}  // namespace lockscope::testing
