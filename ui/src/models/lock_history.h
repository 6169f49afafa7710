#pragma once
// What the detail pane plots: per lock, the PTTL observed over time (renewals make a
// sawtooth), and the events between observations — handoffs with their new token and
// fence, and expiry or deletion. Bounded per lock so 10k watched locks stay cheap.

#include <QHash>
#include <QString>
#include <QVector>
#include <chrono>
#include <optional>
#include <vector>

#include "lockscope/inspect/lock_record.h"
#include "models/row_key.h"

namespace lockscope::ui {

struct PttlSample {
    double time;    // seconds since the Unix epoch (wall clock, for the time axis)
    double pttlMs;  // -1 without TTL
};

// What happened at a HolderChange: told apart, because "expired" for a voluntary release
// sends an operator after the wrong problem.
enum class HolderEvent {
    Acquired,  // first seen, or taken again after it was gone
    Takeover,  // another holder while the key existed (a handoff between observations)
    Released,  // the key was deleted before its TTL ran out (by its holder or someone)
    Expired,   // the key went when its PTTL reached 0
};

struct HolderChange {
    double time;
    QString token;  // the holder token, or the Redisson fields joined
    std::optional<qint64> fence;
    bool vanished = false;  // the key expired or was deleted
    HolderEvent event = HolderEvent::Acquired;
};

QString toString(HolderEvent event);

struct LockTrack {
    std::vector<PttlSample>
        samples;                    // a vector, not a deque: a deque costs 512 B per lock up front
    QVector<HolderChange> holders;  // first holder seen, then every change
};

class LockHistory {
  public:
    explicit LockHistory(std::size_t maxSamplesPerLock = 512) : maxSamples_(maxSamplesPerLock) {}

    // Adds an observation to the lock's track. Only a lock with a history has a track: one
    // seen renewed, handed off or appearing while watched, or one asked for (ensure()). A
    // million quiet locks then cost no track each (issue 18: memory per row).
    void record(const RowKey& row, const inspect::LockRecord& record);
    // The lock's track, started now (from what the record remembers) if it had none: the
    // detail pane plots the selected lock whatever happened to it before.
    const LockTrack* ensure(const RowKey& row, const inspect::LockRecord& record);
    // The key is gone: Expired when its countdown had about run out, else Released.
    void vanished(const RowKey& row);
    // vanished() for each of these keys of one instance that has a track: a restart removes
    // 100,000 keys at once, and only a few of them have one.
    void vanishedAmong(const QString& instance, const QStringList& keys);
    // vanished() for every tracked key of one instance (its server restarted empty).
    void vanishedAll(const QString& instance);
    // How close to 0 the countdown must be for a vanished key to count as expired: the poll
    // interval plus the time to notice.
    static constexpr double kExpirySlackMs = 1500;
    void forget(const RowKey& row) { tracks_.erase(row); }
    // The lock's row is now another instance's (its cluster slot moved): the track goes with it.
    void move(const RowKey& from, const RowKey& to) {
        auto node = tracks_.extract(from);
        if (node.empty()) return;
        node.key() = to;
        tracks_.insert(std::move(node));
    }
    const LockTrack* track(const RowKey& row) const;
    void reserve(std::size_t locks) { tracks_.reserve(locks); }
    // An empty table of tracks sized for this many locks, made by any thread (its bucket
    // array's first touch is then not the GUI thread's), and adopted: the tracks move into it
    // (their addresses stay the same).
    using Tracks = RowKeyMap<LockTrack>;
    static Tracks tracksFor(std::size_t locks) {
        Tracks tracks;
        tracks.reserve(locks);
        return tracks;
    }
    void adopt(Tracks tracks) {
        if (tracks.bucket_count() <= tracks_.bucket_count()) return;
        tracks.merge(tracks_);
        tracks_ = std::move(tracks);
    }

    // The wall-clock time of a steady-clock instant, for plotting.
    static double wallSeconds(std::chrono::steady_clock::time_point at);

  private:
    static bool hasHistory(const inspect::LockRecord& record) {
        return record.renewals > 0 || record.handoffs > 0 || record.appearedWhileWatching;
    }
    // A new track: the current holder since it was first seen, with the PTTL it had then.
    static void start(LockTrack& track, const inspect::LockRecord& record);
    void append(LockTrack& track, const inspect::LockRecord& record);
    std::size_t maxSamples_;
    // A track's address stays valid for the detail pane while others are added.
    RowKeyMap<LockTrack> tracks_;
};

QString holderOf(const inspect::LockRecord& record);

}  // namespace lockscope::ui
