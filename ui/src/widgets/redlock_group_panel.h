#pragma once
// The group of the selected lock, when it has one. For a Redlock (inspect::isRedlock: a Redlock
// client's format, or one key and holder on several independent servers): the same resource on
// every independent connected server, per node the holder and PTTL left, whether a majority
// agrees on one holder, and the validity that majority still gives (inspect::analyzeGroup).
// For a sidekiq-unique-jobs key: the digest, its keys as one group (on a cluster, on whichever
// nodes they live) with the jobs that hold it (inspect::groupSidekiqDigests), which Release
// removes together. Any other lock has no group: a redis-py lock on one server is no Redlock,
// however many servers are connected. The PTTL column counts down while shown.

#include <QString>
#include <QTimer>
#include <QWidget>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"

class QLabel;
class QTableWidget;

namespace lockscope::ui {

// A connected instance as the group views need it.
struct GroupInstance {
    std::string instance;  // LockRecord::instanceName() spelling
    QString server;        // the connection it belongs to: a cluster's nodes share one
    bool clusterNode = false;
};

class RedlockGroupPanel : public QWidget {
    Q_OBJECT
  public:
    explicit RedlockGroupPanel(QWidget* parent = nullptr);

    // Chooses and shows the selected lock's group. records: every record of its resource on
    // any instance. Returns the tab's title ("Redlock group", "Digest"), or "" when the lock
    // has no group (nothing is shown then).
    QString showFor(const inspect::LockRecord& selected,
                    const std::vector<inspect::LockRecord>& records,
                    const std::vector<GroupInstance>& instances);
    // records: the selected resource's records on every instance; instances: the Redlock set.
    void show(const std::string& resource, const std::vector<inspect::LockRecord>& records,
              const std::vector<std::string>& instances);
    // records: the keys of the selected key's digest (its resource), on the selected key's
    // server: a cluster's keys of one digest may live on different nodes. clusterNodes: that
    // cluster's nodes (empty on a plain server), any of which may hold its LOCKED hash.
    void showDigest(const inspect::LockRecord& selected,
                    const std::vector<inspect::LockRecord>& records,
                    const std::vector<std::string>& clusterNodes = {});
    QString summary() const;
    QTableWidget* nodes() const { return nodes_; }

  protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

  private:
    enum class Mode { None, Redlock, Digest };
    // Recomputes the shown group at the current time: the PTTL column and the validity.
    void refresh();
    void fillRedlock();
    void fillDigest();
    // The summary's end when the digest's LOCKED hash is not among its keys read.
    QString lockedNotSeen(const std::string& lockedKey) const;

    QLabel* summary_;
    QTableWidget* nodes_;
    QTimer ticker_;
    Mode mode_ = Mode::None;
    std::string resource_;
    std::vector<inspect::LockRecord> records_;
    std::vector<std::string> instances_;
    std::string selectedInstance_;
    std::vector<std::string> clusterNodes_;
};

}  // namespace lockscope::ui
