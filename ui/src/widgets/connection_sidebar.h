#pragma once
// The sidebar: every connection with its state (connecting, connected, reconnecting,
// failed), and buttons to add, edit, remove and connect, and to start the local sandbox.

#include <QHash>
#include <QStringList>
#include <QWidget>

#include "session/connection_profile.h"
#include "session/connection_worker.h"

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
    void updateProfile(const ConnectionProfile& profile);
    void removeProfile(const QString& id);
    void setState(const QString& id, ConnectionState state, const QString& message);
    // A connection to a Redis Cluster: its nodes (role, slot ranges, state), listed under it.
    void setClusterNodes(const QString& id, const QStringList& nodeLines);
    // A cluster that cannot serve some slots: which nodes do not answer and which slots have
    // no primary, said under its nodes (both empty: every primary answers again).
    void setClusterHealth(const QString& id, const QString& downNodes,
                          const QString& slotsWithoutPrimary);
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
    void duplicateRequested(const QString& id);
    void sandboxRequested();

  private:
    QListWidgetItem* itemFor(const QString& id) const;
    void refreshItem(QListWidgetItem* item, const ConnectionProfile& p, ConnectionState state,
                     const QString& message);

    QList<ConnectionProfile> profiles_;
    QHash<QString, QStringList> clusterNodes_;  // by profile id
    struct ClusterDown {
        QStringList nodes;  // "host:port" of the nodes down
        QString said;       // the sentence, for the tooltip
    };
    QHash<QString, ClusterDown> clusterDown_;  // by profile id: what setClusterHealth said
    QListWidget* list_;
    QPushButton* sandbox_;
};

}  // namespace lockscope::ui
