#pragma once
// The Redlock group of the selected lock: the same resource on every connected instance,
// per node the holder and PTTL left, whether a majority agrees on one holder, and the
// validity that majority still gives (inspect::analyzeGroup).

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
    QString summary() const;

  private:
    QLabel* summary_;
    QTableWidget* nodes_;
};

}  // namespace lockscope::ui
