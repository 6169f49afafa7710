#pragma once
// The command log drawer: every command LockScope sent, with its reply summary and
// latency, newest last, bounded so it never grows without limit.

#include <QAbstractTableModel>
#include <deque>

#include "models/command_log_entry.h"

namespace lockscope::ui {

class CommandLogModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Time, Instance, Command, Reply, Latency, ColumnCount };
    explicit CommandLogModel(QObject* parent = nullptr, int capacity = 5000);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void append(const QVector<CommandLogEntry>& entries);

  private:
    std::deque<CommandLogEntry> entries_;
    int capacity_;
};

}  // namespace lockscope::ui
