#pragma once
// The Redlock group of the selected lock: the same resource on every connected instance,
// per node the holder and PTTL left, whether a majority agrees on one holder, and the
// validity that majority still gives (inspect::analyzeGroup). For a sidekiq-unique-jobs key
// it shows the digest instead: the lock and its keys as one group, with the jobs that hold
// it (inspect::groupSidekiqDigests), which Release removes together.

#include <QWidget>
#include <vector>

#include "lockscope/inspect/lock_record.h"

class QLabel;
class QTableWidget;

namespace lockscope::ui {

class RedlockGroupPanel : public QWidget {
    Q_OBJECT
  public:
    explicit RedlockGroupPanel(QWidget* parent = nullptr);

    // records: the selected resource's records on every instance; instances: all connected.
    void show(const std::string& resource, const std::vector<inspect::LockRecord>& records,
              const std::vector<std::string>& instances);
    // records: the keys of the selected key's digest (its resource).
    void showDigest(const inspect::LockRecord& selected,
                    const std::vector<inspect::LockRecord>& records);
    QString summary() const;

  private:
    QLabel* summary_;
    QTableWidget* nodes_;
};

}  // namespace lockscope::ui
