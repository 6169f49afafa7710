#pragma once
// Connections in groups (folders, e.g. by environment) for a sidebar of dozens: the order the
// sidebar lists them in, what a group's header says, and the filter over names, addresses and
// groups. Plain functions over the profiles and their figures, so a test can read the rules.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include "session/connection_profile.h"
#include "session/connection_worker.h"

namespace lockscope::ui {

// What the sidebar knows of one open connection now.
struct ConnectionFigures {
    ConnectionState state = ConnectionState::Stopped;
    QString message;   // the last state's explanation (the tooltip)
    int locks = -1;    // rows in the lock table; -1 before a first scan
    double load = -1;  // the watch's share of its busiest server's core; -1 unknown
};

struct SidebarGroup {
    QString name;        // empty: the connections in no group, listed first without a header
    QList<int> members;  // indexes into the profiles, by name
};

// The ungrouped connections first, then each group by name (case-insensitive), members by
// name within each.
QList<SidebarGroup> groupConnections(const QList<ConnectionProfile>& profiles);
// "3 connections · 2 connected · 1,204 locks" (under the group's name)
QString groupHeaderText(const SidebarGroup& group, const QList<ConnectionProfile>& profiles,
                        const QHash<QString, ConnectionFigures>& figures);
// "· 1,204 locks · 0.4% load" for a connection's second line; empty while unknown.
QString figuresText(const ConnectionFigures& figures);
// The groups in use, by name, for the connection dialog's Group box.
QStringList knownGroups(const QList<ConnectionProfile>& profiles);
// Every word of the filter is in the name, the address or the group (case-insensitive).
bool matchesFilter(const ConnectionProfile& profile, const QString& filter);

}  // namespace lockscope::ui
