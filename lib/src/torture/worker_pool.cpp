#include "worker_pool.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>

#include "lockscope/errors.h"

extern char** environ;

namespace lockscope::torture {

WorkerPool::~WorkerPool() {
    finish(std::chrono::milliseconds(0));
}

pid_t WorkerPool::start(const std::vector<std::string>& argv, const std::string& errorLog) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) throw ProcessError("torture: cannot create a worker pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, errorLog.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);  // its own group: pause it with its children
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        throw ProcessError("torture: cannot start the worker " + argv[0]);
    }
    std::lock_guard lock(mutex_);
    processes_.push_back({pid, out[0], errorLog});
    std::size_t index = processes_.size() - 1;
    readers_.emplace_back([this, index] { read(index); });
    return pid;
}

void WorkerPool::read(std::size_t index) {
    int fd;
    {
        std::lock_guard lock(mutex_);
        fd = processes_[index].output;
    }
    std::string buffer;
    char chunk[8192];
    ssize_t n;
    while ((n = ::read(fd, chunk, sizeof chunk)) > 0) {
        buffer.append(chunk, static_cast<std::size_t>(n));
        std::size_t newline;
        while ((newline = buffer.find('\n')) != std::string::npos) {
            std::string line = buffer.substr(0, newline);
            buffer.erase(0, newline + 1);
            std::lock_guard lock(mutex_);
            try {
                history_.push_back(opFromJsonLine(line));
                track(history_.back());
            } catch (const Error& e) {
                errors_.push_back("worker " + std::to_string(index) + ": " + e.what());
            }
        }
    }
    close(fd);
}

void WorkerPool::track(const Op& op) {
    auto it = std::find(inside_.begin(), inside_.end(), op.process);
    // Working: between the reply to the "begin" write and the "end" write, when a worker
    // holds the lock and no SQLite transaction (a pause there would stall every writer).
    bool entering = op.f == "write" && op.type == OpType::Ok && op.phase == "begin";
    bool leaving = (op.f == "write" && op.phase == "end") || op.f == "release" || op.f == "lost";
    if (entering && it == inside_.end()) inside_.push_back(op.process);
    if (leaving && it != inside_.end()) inside_.erase(it);
}

std::vector<int> WorkerPool::working() const {
    std::lock_guard lock(mutex_);
    return inside_;
}

void WorkerPool::pause(int worker) {
    kill(-processes_.at(worker).pid, SIGSTOP);
}
void WorkerPool::resume(int worker) {
    kill(-processes_.at(worker).pid, SIGCONT);
}
void WorkerPool::resumeAll() {
    for (auto& p : processes_)
        if (!p.exited) kill(-p.pid, SIGCONT);
}

void WorkerPool::reap(bool block) {
    for (auto& p : processes_) {
        if (p.exited) continue;
        if (waitpid(p.pid, &p.status, block ? 0 : WNOHANG) == p.pid) p.exited = true;
    }
}

void WorkerPool::finish(std::chrono::milliseconds timeout) {
    if (finished_) return;
    finished_ = true;
    resumeAll();
    auto until = std::chrono::steady_clock::now() + timeout;
    while (true) {
        reap(false);
        bool allDone = std::all_of(processes_.begin(), processes_.end(),
                                   [](const Process& p) { return p.exited; });
        if (allDone || std::chrono::steady_clock::now() >= until) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (auto& p : processes_) {
        kill(-p.pid, SIGKILL);  // the worker and any adapter it started
        kill(-p.pid, SIGCONT);
    }
    reap(true);
    for (auto& reader : readers_)
        if (reader.joinable()) reader.join();
    for (std::size_t i = 0; i < processes_.size(); ++i) {
        const Process& p = processes_[i];
        if (WIFEXITED(p.status) && WEXITSTATUS(p.status) != 0) {
            std::ifstream log(p.errorLog);
            std::string first;
            std::getline(log, first);
            std::lock_guard lock(mutex_);
            errors_.push_back("worker " + std::to_string(i) + " exited with status " +
                              std::to_string(WEXITSTATUS(p.status)) +
                              (first.empty() ? "" : ": " + first));
        }
    }
}

History WorkerPool::takeHistory() {
    std::lock_guard lock(mutex_);
    return std::move(history_);
}

std::vector<std::string> WorkerPool::errors() const {
    std::lock_guard lock(mutex_);
    return errors_;
}

}  // namespace lockscope::torture
