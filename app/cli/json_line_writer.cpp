#include "json_line_writer.h"

#include <algorithm>

#include "lockscope/inspect/record_json.h"

namespace lockscope::cli {

JsonLineWriter::JsonLineWriter(std::FILE* out, std::size_t maxQueuedBatches)
    : out_(out), maxQueued_(std::max<std::size_t>(maxQueuedBatches, 1)) {
    thread_ = std::thread([this] { run(); });
}

JsonLineWriter::~JsonLineWriter() {
    finish();
}

void JsonLineWriter::push(std::vector<inspect::LockRecord> batch,
                          inspect::SteadyClock::time_point readAt) {
    if (batch.empty()) return;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queue_.size() < maxQueued_ || closing_; });
    if (closing_) return;
    queue_.push_back({std::move(batch), readAt});
    changed_.notify_all();
}

void JsonLineWriter::finish() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void JsonLineWriter::run() {
    std::string text;
    for (;;) {
        Batch batch;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return !queue_.empty() || closing_; });
            if (queue_.empty()) return;  // closing, and everything is written
            batch = std::move(queue_.front());
            queue_.pop_front();
        }
        changed_.notify_all();  // room for the scanning thread's next batch
        text.clear();
        for (const auto& r : batch.records) {
            text += inspect::toJsonLine(r, batch.readAt);
            text += '\n';
        }
        std::fwrite(text.data(), 1, text.size(), out_);
    }
}

}  // namespace lockscope::cli
