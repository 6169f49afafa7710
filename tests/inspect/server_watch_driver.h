#pragma once
// Drives a ServerWatch as a front end does (rounds at the poll interval, keyspace events in
// between) and keeps every event it reported, for tests that check what a user would see.

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/inspect/watch/server_watch.h"

namespace lockscope::testing {

class ServerWatchDriver {
  public:
    explicit ServerWatchDriver(inspect::ServerWatch& watch) : watch_(watch) {}

    void open() { keep(watch_.open()); }
    // Rounds until `done` holds for the events so far, or the time is up. True when it held.
    bool runUntil(const std::function<bool(const std::vector<inspect::WatchEvent>&)>& done,
                  std::chrono::milliseconds limit) {
        const auto until = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < until) {
            keep(watch_.step());
            if (done(events_)) return true;
            keep(watch_.waitForEvents(std::chrono::milliseconds(50)));
        }
        return done(events_);
    }
    void runFor(std::chrono::milliseconds d) {
        runUntil([](const auto&) { return false; }, d);
    }
    const std::vector<inspect::WatchEvent>& events() const { return events_; }

  private:
    void keep(std::vector<inspect::WatchEvent> more) {
        for (auto& e : more) events_.push_back(std::move(e));
    }
    inspect::ServerWatch& watch_;
    std::vector<inspect::WatchEvent> events_;
};

// Whether a Rows event of the events shows the key as added or changed (held) on `node`
// (any node when empty).
inline bool shown(const std::vector<inspect::WatchEvent>& events, const std::string& key,
                  const std::string& node = {}) {
    for (const auto& e : events)
        if (e.kind == inspect::WatchEvent::Kind::Rows && (node.empty() || e.node == node))
            for (const auto& r : e.rows.changed)
                if (r.key == key) return true;
    return false;
}

// The last record a Rows event of the events carried for the key, null when none did.
inline const inspect::LockRecord* lastRow(const std::vector<inspect::WatchEvent>& events,
                                          const std::string& key) {
    const inspect::LockRecord* last = nullptr;
    for (const auto& e : events)
        if (e.kind == inspect::WatchEvent::Kind::Rows)
            for (const auto& r : e.rows.changed)
                if (r.key == key) last = &r;
    return last;
}

inline bool removed(const std::vector<inspect::WatchEvent>& events, const std::string& key) {
    for (const auto& e : events)
        if (e.kind == inspect::WatchEvent::Kind::Rows)
            for (const auto& k : e.rows.removed)
                if (k == key) return true;
    return false;
}

inline std::size_t countKind(const std::vector<inspect::WatchEvent>& events,
                             inspect::WatchEvent::Kind kind) {
    std::size_t n = 0;
    for (const auto& e : events) n += e.kind == kind;
    return n;
}

inline bool noted(const std::vector<inspect::WatchEvent>& events, inspect::WatchNoteId id) {
    for (const auto& e : events)
        if (e.kind == inspect::WatchEvent::Kind::Note && e.note.id == id) return true;
    return false;
}

}  // namespace lockscope::testing
