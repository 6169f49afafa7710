#include "models/command_log_model.h"

#include <QDateTime>
#include <QFontDatabase>

#include "support/tsan_handover.h"

namespace lockscope::ui {

CommandLogModel::CommandLogModel(QObject* parent, int capacity)
    : QAbstractTableModel(parent), capacity_(capacity) {}

int CommandLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(entries_.size());
}
int CommandLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CommandLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Time:
            return tr("Time");
        case Instance:
            return tr("Instance");
        case Command:
            return tr("Command");
        case Reply:
            return tr("Reply");
        case Latency:
            return tr("Latency");
    }
    return {};
}

QVariant CommandLogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CommandLogEntry& e = entries_[std::size_t(index.row())];
    if (role == Qt::FontRole && (index.column() == Command || index.column() == Reply))
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::TextAlignmentRole && index.column() == Latency)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
        case Time:
            return QDateTime::fromMSecsSinceEpoch(e.wallMs).toString(
                QStringLiteral("hh:mm:ss.zzz"));
        case Instance:
            return e.instance;
        case Command:
            return e.command;
        case Reply:
            return e.reply;
        case Latency:
            return e.latencyUs < 1000 ? tr("%1 µs").arg(e.latencyUs)
                                      : tr("%1 ms").arg(double(e.latencyUs) / 1000.0, 0, 'f', 1);
    }
    return {};
}

void CommandLogModel::append(const QVector<CommandLogEntry>& entries) {
    takeOver(entries.constData());  // a worker's batch, through Qt's queue (tsan_handover.h)
    if (entries.isEmpty()) return;
    int overflow = int(entries_.size() + std::size_t(entries.size())) - capacity_;
    if (overflow > 0) {
        overflow = std::min(overflow, int(entries_.size()));
        if (overflow > 0) {
            beginRemoveRows({}, 0, overflow - 1);
            entries_.erase(entries_.begin(), entries_.begin() + overflow);
            endRemoveRows();
        }
    }
    int keep = std::min(int(entries.size()), capacity_);
    int first = int(entries_.size());
    beginInsertRows({}, first, first + keep - 1);
    for (int i = int(entries.size()) - keep; i < entries.size(); ++i)
        entries_.push_back(entries[i]);
    endInsertRows();
}

}  // namespace lockscope::ui
