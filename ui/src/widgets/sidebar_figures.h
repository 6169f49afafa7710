#pragma once
// Feeds the sidebar each connection's figures once a second: its rows in the lock table and
// its watch's load (the busiest of its servers' shares, for a cluster's several nodes), so
// dozens of connections can be read at a glance.

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace lockscope::ui {

class ConnectionHub;
class ConnectionSidebar;
class LockTableModel;

class SidebarFigures : public QObject {
    Q_OBJECT
  public:
    SidebarFigures(ConnectionHub& hub, const LockTableModel& locks, ConnectionSidebar& sidebar,
                   QObject* parent = nullptr);
    void refresh();

  private:
    // The connection a table instance belongs to (a cluster's node: its cluster connection).
    QString connectionOf(const QString& instance) const;

    ConnectionHub& hub_;
    const LockTableModel& locks_;
    ConnectionSidebar& sidebar_;
    QHash<QString, double> shareByInstance_;  // the last measured share of each instance
    QSet<QString> scanned_;  // instances whose first scan ended: their count is whole
    QTimer timer_;
};

}  // namespace lockscope::ui
