#include "widgets/lock_inspector_view_progress.h"

#include <QObject>
#include <algorithm>

namespace lockscope::ui {

void ScanProgressTally::started(const QString& instance) {
    scans_[instance] = Scan{};
}

void ScanProgressTally::progressed(const QString& instance, double fraction, quint64 keysSeen) {
    Scan& s = scans_[instance];
    s.fraction = std::clamp(fraction, 0.0, 1.0);
    s.keysSeen = keysSeen;
}

void ScanProgressTally::finished(const QString& instance) {
    auto it = scans_.find(instance);
    if (it == scans_.end()) return;
    it->second.fraction = 1.0;
    it->second.done = true;
}

double ScanProgressTally::fraction() const {
    if (scans_.empty()) return 0;
    double sum = 0;
    for (const auto& [instance, s] : scans_) sum += s.fraction;
    return sum / double(scans_.size());
}

quint64 ScanProgressTally::keysSeen() const {
    quint64 sum = 0;
    for (const auto& [instance, s] : scans_) sum += s.keysSeen;
    return sum;
}

QString ScanProgressTally::tooltip(const std::function<QString(const QString&)>& nameOf) const {
    QStringList lines;
    for (const auto& [instance, s] : scans_) {
        const QString name = nameOf ? nameOf(instance) : instance;
        lines << (s.done ? QObject::tr("%1: done · %2 keys").arg(name).arg(s.keysSeen)
                         : QObject::tr("%1: %2% · %3 keys")
                               .arg(name)
                               .arg(int(s.fraction * 100))
                               .arg(s.keysSeen));
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace lockscope::ui
