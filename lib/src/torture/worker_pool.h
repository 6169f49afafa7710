#pragma once
// The worker processes of a run: each started from the worker command in its own process
// group (so a pause stops it and any adapter child together), its stdout read on a thread
// into the shared history, its stderr kept in a file for the report.

#include <sys/types.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/torture/history.h"

namespace lockscope::torture {

class WorkerPool {
  public:
    WorkerPool() = default;
    ~WorkerPool();  // kills what still runs (SIGKILL to each group) and joins the readers
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Starts argv (plus nothing else); its stderr goes to errorLog. Throws ProcessError.
    pid_t start(const std::vector<std::string>& argv, const std::string& errorLog);

    void pause(int worker);   // SIGSTOP to the worker's group
    void resume(int worker);  // SIGCONT
    void resumeAll();
    // Waits until every worker exited or the timeout passed; then kills the rest.
    void finish(std::chrono::milliseconds timeout);

    History takeHistory();                    // what the workers reported so far, moved out
    std::vector<std::string> errors() const;  // malformed lines, odd exits

  private:
    struct Process {
        pid_t pid = -1;
        int output = -1;
        std::string errorLog;
        bool exited = false;
        int status = 0;
    };
    void read(std::size_t index);
    void reap(bool block);

    bool finished_ = false;
    std::vector<Process> processes_;
    std::vector<std::thread> readers_;
    mutable std::mutex mutex_;
    History history_;
    std::vector<std::string> errors_;
};

}  // namespace lockscope::torture
