#pragma once
// The sidebar: every connection with its state (connecting, connected, reconnecting,
// failed), its lock count and load, in groups (folders, e.g. by environment; the ungrouped
// first) with a header each that collapses and connects or disconnects the whole group, a
// filter over names, addresses and groups, and buttons to add, edit, remove and connect,
// and to start the local sandbox.

#include <QHash>
#include <QStringList>
#include <QWidget>

#include <QSet>

#include "session/connection_profile.h"
#include "session/connection_worker.h"
#include "widgets/connection_groups.h"

class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QPushButton;

namespace lockscope::ui {

class ConnectionSidebar : public QWidget {
    Q_OBJECT
  public:
    explicit ConnectionSidebar(QWidget* parent = nullptr);

    void setProfiles(const QList<ConnectionProfile>& profiles);
    void addProfile(const ConnectionProfile& profile);
    // Many at once (an import): the list is laid out once, not once per connection.
    void addProfiles(const QList<ConnectionProfile>& profiles);
    void updateProfile(const ConnectionProfile& profile);
    void removeProfile(const QString& id);
    void setState(const QString& id, ConnectionState state, const QString& message);
    // A connection to a Redis Cluster: its nodes (role, slot ranges, state), listed under it.
    void setClusterNodes(const QString& id, const QStringList& nodeLines);
    // The connection's lock count (-1 unknown) and its watch's share of a server core.
    void setFigures(const QString& id, int locks, double load);
    QLineEdit* filter() const { return filter_; }
    // The right-click menu of a group's header: connect or disconnect every member.
    QMenu* contextMenuForGroup(const QString& group);
    void setGroupCollapsed(const QString& group, bool collapsed);
    // A cluster that cannot serve some slots: which nodes do not answer and which slots have
    // no primary, said under its nodes (both empty: every primary answers again).
    void setClusterHealth(const QString& id, const QString& downNodes,
                          const QString& slotsWithoutPrimary);
    // What setClusterHealth said of the connection's cluster ("cluster down: … not answering
    // · slots without a primary: …"); empty while every primary answers.
    QString clusterDownSaid(const QString& id) const { return clusterDown_.value(id).said; }
    QString currentId() const;
    QList<ConnectionProfile> profiles() const { return profiles_; }
    const ConnectionProfile* profile(const QString& id) const;
    QListWidget* list() const { return list_; }
    // The right-click menu of a connection: connect or disconnect, edit, duplicate, remove.
    QMenu* contextMenuFor(const QString& id);

  signals:
    void addRequested();
    void editRequested(const QString& id);
    void removeRequested(const QString& id);
    void toggleRequested(const QString& id);  // connect or disconnect
    // A group's menu: open (or close) each of these connections that is not yet.
    void groupConnectRequested(const QStringList& ids, bool open);
    void duplicateRequested(const QString& id);
    void sandboxRequested();

  private:
    QListWidgetItem* itemFor(const QString& id) const;
    // Lists the groups and their connections again, keeping the current one.
    void rebuild();
    void refreshItem(QListWidgetItem* item, const ConnectionProfile& p);
    void refreshHeaders();
    void applyFilter();
    QStringList membersOf(const QString& group) const;

    QList<ConnectionProfile> profiles_;
    QHash<QString, QStringList> clusterNodes_;   // by profile id
    QHash<QString, ConnectionFigures> figures_;  // by profile id
    QSet<QString> collapsed_;                    // group names
    QLineEdit* filter_;
    struct ClusterDown {
        QStringList nodes;  // "host:port" of the nodes down
        QString said;       // the sentence, for the tooltip
    };
    QHash<QString, ClusterDown> clusterDown_;  // by profile id: what setClusterHealth said
    QListWidget* list_;
    QPushButton* sandbox_;
};

}  // namespace lockscope::ui
