#pragma once
// The liveness tests' real holders: a worker process (node with BullMQ or Bull, Sidekiq)
// started with posix_spawn, its stdout read line by line, killed (SIGKILL), paused (SIGSTOP)
// and resumed (SIGCONT) for real; and a poll of LivenessReader until a verdict shows.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/scanner.h"

extern char** environ;

namespace liveness_test {

using namespace std::chrono_literals;
namespace inspect = lockscope::inspect;

inline const std::string kPeers =
    std::string(LOCKSCOPE_SOURCE_DIR) + "/tests/inspect/liveness_peers";
inline const std::string kAdapters = std::string(LOCKSCOPE_SOURCE_DIR) + "/tests/torture/adapters";

// A holder process: argv[0] is looked up on PATH; env entries are added to the environment.
class HolderProcess {
  public:
    HolderProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {}) {
        int fds[2];
        EXPECT_EQ(pipe(fds), 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        std::vector<std::string> args = argv, envs = env;
        for (char** e = environ; *e; ++e) envs.emplace_back(*e);
        std::vector<char*> cargv, cenv;
        for (auto& a : args) cargv.push_back(a.data());
        for (auto& e : envs) cenv.push_back(e.data());
        cargv.push_back(nullptr);
        cenv.push_back(nullptr);
        EXPECT_EQ(
            posix_spawnp(&pid_, args[0].c_str(), &actions, nullptr, cargv.data(), cenv.data()), 0);
        posix_spawn_file_actions_destroy(&actions);
        close(fds[1]);
        fd_ = fds[0];
    }
    ~HolderProcess() {
        if (pid_ > 0) {
            kill(pid_, SIGCONT);
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(fd_);
    }
    HolderProcess(const HolderProcess&) = delete;
    HolderProcess& operator=(const HolderProcess&) = delete;

    // Waits for a stdout line starting with prefix; returns the rest of that line.
    std::optional<std::string> waitFor(const std::string& prefix,
                                       std::chrono::milliseconds timeout) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            for (auto nl = buffer_.find('\n'); nl != std::string::npos; nl = buffer_.find('\n')) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (line.starts_with(prefix)) return line.substr(prefix.size());
            }
            pollfd p{fd_, POLLIN, 0};
            if (poll(&p, 1, 100) <= 0) continue;
            char chunk[4096];
            auto n = read(fd_, chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
        return std::nullopt;
    }
    void signal(int sig) { kill(pid_, sig); }
    void killHard() {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

  private:
    pid_t pid_ = -1;
    int fd_ = -1;
    std::string buffer_;
};

inline bool npmPeersInstalled() {
    return std::filesystem::exists(kAdapters + "/node_modules/bullmq") &&
           std::filesystem::exists(kAdapters + "/node_modules/bull");
}

// The lock at key, read as the scanner reads it, judged by reader.
inline std::optional<inspect::LockRecord> judge(lockscope::Connection& c,
                                                inspect::LivenessReader& reader,
                                                const std::string& key) {
    inspect::Scanner scanner(c, {});
    auto records = scanner.readKeys({key});
    if (records.empty()) return std::nullopt;
    reader.assess(records);
    return records.front();
}

inline std::string evidenceText(const inspect::HolderVerdict& v) {
    return inspect::describeVerdict(v);
}

}  // namespace liveness_test
