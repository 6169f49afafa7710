#include "models/lock_history.h"

#include <QDateTime>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <vector>

namespace lockscope::ui {

QString holderOf(const inspect::LockRecord& record) {
    if (record.fields.empty())
        return QString::fromUtf8(record.token.data(), qsizetype(record.token.size()));
    QStringList parts;
    for (const auto& f : record.fields)
        parts << QString::fromStdString(f.field) + '=' + QString::fromStdString(f.value);
    return parts.join(QStringLiteral(", "));
}

QString toString(HolderEvent event) {
    switch (event) {
        case HolderEvent::Acquired:
            return QObject::tr("acquired");
        case HolderEvent::Takeover:
            return QObject::tr("taken over");
        case HolderEvent::Released:
            return QObject::tr("released");
        case HolderEvent::Expired:
            return QObject::tr("expired");
    }
    return {};
}

double LockHistory::wallSeconds(std::chrono::steady_clock::time_point at) {
    auto age = std::chrono::steady_clock::now() - at;
    double ageSeconds = std::chrono::duration<double>(age).count();
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0 - ageSeconds;
}

void LockHistory::start(LockTrack& track, const inspect::LockRecord& record) {
    const double since = wallSeconds(record.lastChange);
    if (record.lastChange < record.observedAt)
        track.samples.push_back({since, double(record.firstPttlMs)});
    track.holders.append({since, holderOf(record),
                          record.fence ? std::optional<qint64>(*record.fence) : std::nullopt, false,
                          record.handoffs > 0 ? HolderEvent::Takeover : HolderEvent::Acquired});
}

void LockHistory::record(const RowKey& row, const inspect::LockRecord& record) {
    auto it = tracks_.find(row);
    if (it == tracks_.end()) {
        if (!hasHistory(record)) return;
        it = tracks_.try_emplace(row).first;
        start(it->second, record);
    }
    append(it->second, record);
}

const LockTrack* LockHistory::ensure(const RowKey& row, const inspect::LockRecord& record) {
    auto [it, added] = tracks_.try_emplace(row);
    if (added) {
        start(it->second, record);
        append(it->second, record);
    }
    return &it->second;
}

void LockHistory::append(LockTrack& track, const inspect::LockRecord& record) {
    double t = wallSeconds(record.observedAt);
    if (!track.samples.empty() && track.samples.back().time >= t) return;  // same observation
    track.samples.push_back({t, double(record.pttlMs)});
    if (track.samples.size() > maxSamples_)
        track.samples.erase(
            track.samples.begin(),
            track.samples.begin() + std::ptrdiff_t(track.samples.size() - maxSamples_));
    QString holder = holderOf(record);
    if (track.holders.isEmpty() || track.holders.back().vanished ||
        track.holders.back().token != holder) {
        const bool takeover = !track.holders.isEmpty() && !track.holders.back().vanished;
        track.holders.append({t, holder,
                              record.fence ? std::optional<qint64>(*record.fence) : std::nullopt,
                              false, takeover ? HolderEvent::Takeover : HolderEvent::Acquired});
        if (track.holders.size() > 64) track.holders.removeFirst();
    }
}

void LockHistory::vanished(const RowKey& row) {
    auto it = tracks_.find(row);
    if (it == tracks_.end()) return;
    LockTrack& track = it->second;
    if (!track.holders.isEmpty() && track.holders.back().vanished) return;
    double t = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    HolderEvent event = HolderEvent::Released;
    if (!track.samples.empty() && track.samples.back().pttlMs >= 0) {
        const PttlSample& last = track.samples.back();
        const double left = last.pttlMs - (t - last.time) * 1000.0;
        if (left <= kExpirySlackMs) event = HolderEvent::Expired;
    }
    track.samples.push_back({t, 0});
    track.holders.append({t, QString(), std::nullopt, true, event});
}

void LockHistory::vanishedAmong(const QString& instance, const QStringList& keys) {
    if (tracks_.empty()) return;
    if (std::size_t(keys.size()) <= tracks_.size()) {
        for (const QString& key : keys) vanished(RowKey{instance, key});
        return;
    }
    const QSet<QString> gone(keys.begin(), keys.end());
    std::vector<RowKey> tracked;
    for (const auto& [row, track] : tracks_)
        if (row.instance == instance && gone.contains(row.key)) tracked.push_back(row);
    for (const RowKey& row : tracked) vanished(row);
}

void LockHistory::vanishedAll(const QString& instance) {
    std::vector<RowKey> tracked;
    for (const auto& [row, track] : tracks_)
        if (row.instance == instance) tracked.push_back(row);
    for (const RowKey& row : tracked) vanished(row);
}

const LockTrack* LockHistory::track(const RowKey& row) const {
    auto it = tracks_.find(row);
    return it == tracks_.end() ? nullptr : &it->second;
}

}  // namespace lockscope::ui
