#pragma once
// The inspector's one scan progress bar over several scans at once: a cluster's primaries
// are scanned by a worker each, and each reports its own fraction. The bar shows the whole
// cluster's (the mean of the nodes' fractions: each primary holds a share of the slots), its
// tooltip each node's. A scan that finished counts as done until every scan has.

#include <QString>
#include <QStringList>
#include <functional>
#include <map>

namespace lockscope::ui {

class ScanProgressTally {
  public:
    void started(const QString& instance);
    void progressed(const QString& instance, double fraction, quint64 keysSeen);
    void finished(const QString& instance);
    // Forgets every scan (none is running any more).
    void clear() { scans_.clear(); }

    double fraction() const;  // 0..1 over the scans since the last clear()
    quint64 keysSeen() const;
    // One line per instance ("name: 42% · 1200 keys"), named by nameOf when given.
    QString tooltip(const std::function<QString(const QString&)>& nameOf = {}) const;

  private:
    struct Scan {
        double fraction = 0;
        quint64 keysSeen = 0;
        bool done = false;
    };
    std::map<QString, Scan> scans_;  // by instance, in name order for the tooltip
};

}  // namespace lockscope::ui
