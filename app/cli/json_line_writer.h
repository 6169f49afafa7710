#pragma once
// Formats and writes `list --json` lines on a thread of its own, so the scanning thread goes
// on reading the next page while the last one is formatted (issue 12: formatting on the scan
// thread made `list --json` 3.3-4.1x the names-only SCAN floor). The queue is bounded: a slow
// reader of stdout slows the scan down instead of growing memory.

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::cli {

class JsonLineWriter {
  public:
    explicit JsonLineWriter(std::FILE* out, std::size_t maxQueuedBatches = 8);
    ~JsonLineWriter();
    JsonLineWriter(const JsonLineWriter&) = delete;
    JsonLineWriter& operator=(const JsonLineWriter&) = delete;

    // Queues a batch read at `readAt` (its PTTLs are counted down to then); waits while the
    // queue is full.
    void push(std::vector<inspect::LockRecord> batch, inspect::SteadyClock::time_point readAt);
    // Writes everything queued and stops the thread; nothing may be pushed after.
    void finish();

  private:
    struct Batch {
        std::vector<inspect::LockRecord> records;
        inspect::SteadyClock::time_point readAt;
    };
    void run();

    std::FILE* out_;
    const std::size_t maxQueued_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Batch> queue_;
    bool closing_ = false;
    std::thread thread_;
};

}  // namespace lockscope::cli
