#pragma once
// Discover: runs lib's discover() (a paced scan of the whole keyspace) for one connection on
// a worker thread, and lists the patterns that would cover the lock-shaped keys its patterns
// miss; "Add" puts a pattern into the connection's profile with one click.

#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <memory>
#include <stop_token>

#include "lockscope/inspect/discover.h"
#include "session/connection_profile.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace lockscope::ui {

struct DiscoverOutcome {
    inspect::DiscoverResult result;
    QString error;  // the connection or the SCAN failed
};

class DiscoverDialog : public QDialog {
    Q_OBJECT
  public:
    explicit DiscoverDialog(ConnectionProfile profile, QWidget* parent = nullptr);
    ~DiscoverDialog() override;

    void start();
    // Until the outcome is shown: the scan's future finishes a turn of the event loop
    // before its outcome reaches the table (a loaded CI run read an empty table between).
    bool running() const { return running_; }
    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }
    // The Add button of a proposal row.
    QPushButton* addButton(int row) const;

  signals:
    void addPatterns(const QString& profileId, const QStringList& patterns);
    void scanDone();

  private:
    void showOutcome(const DiscoverOutcome& outcome);

    ConnectionProfile profile_;
    QFutureWatcher<DiscoverOutcome> watcher_;
    bool running_ = false;
    std::stop_source stop_;
    std::shared_ptr<std::atomic<quint64>> keysSeen_;
    QLabel* summary_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QTableWidget* table_;
};

}  // namespace lockscope::ui
