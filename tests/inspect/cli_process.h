#pragma once
// A lockscope-cli (LOCKSCOPE_CLI) running in the background, for tests that must act while it
// runs: its stdout is read line by line as it comes, and it can be sent Ctrl+C (SIGINT).
// stderr goes to a file the test names.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace lockscope::testing {

// A running lockscope-cli whose stdout is read line by line as it comes.
class CliProcess {
  public:
    explicit CliProcess(const std::vector<std::string>& args, const std::string& errPath)
        : errPath_(errPath) {
        int fds[2];
        EXPECT_EQ(pipe(fds), 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                         0600);
        std::vector<std::string> argv{LOCKSCOPE_CLI};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char*> cargv;
        cargv.reserve(argv.size() + 1);
        for (auto& a : argv) cargv.push_back(a.data());
        cargv.push_back(nullptr);
        EXPECT_EQ(posix_spawn(&pid_, LOCKSCOPE_CLI, &actions, nullptr, cargv.data(), environ), 0);
        posix_spawn_file_actions_destroy(&actions);
        close(fds[1]);
        fd_ = fds[0];
    }
    ~CliProcess() {
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            wait();
        }
        close(fd_);
    }
    // The next line of stdout, or nullopt at the end or after the timeout.
    std::optional<std::string> line(std::chrono::milliseconds timeout) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
                std::string l = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return l;
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            pollfd p{fd_, POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
            char buf[65536];
            ssize_t n = read(fd_, buf, sizeof buf);
            if (n <= 0) return std::nullopt;
            buffer_.append(buf, static_cast<std::size_t>(n));
        }
    }
    std::vector<std::string> rest() {
        std::vector<std::string> lines;
        while (auto l = line(std::chrono::seconds(20))) lines.push_back(*l);
        return lines;
    }
    bool running() { return pid_ > 0 && waitpid(pid_, &status_, WNOHANG) == 0; }
    void interrupt() { kill(pid_, SIGINT); }
    // The exit code and the peak RSS of the process, in kB.
    std::pair<int, long> wait() {
        rusage usage{};
        if (pid_ > 0 && wait4(pid_, &status_, 0, &usage) == pid_) pid_ = -1;
        return {WIFEXITED(status_) ? WEXITSTATUS(status_) : -1, usage.ru_maxrss};
    }

    // What it wrote to stderr so far.
    std::string errors() const {
        std::ifstream in(errPath_);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

  private:
    std::string errPath_;
    pid_t pid_ = -1;
    int fd_ = -1;
    int status_ = 0;
    std::string buffer_;
};

}  // namespace lockscope::testing
