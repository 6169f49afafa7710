#include "models/audit_log_model.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace lockscope::ui {
namespace {

// A log grown past this is read from its last part only: the viewer must open at once.
constexpr qint64 kMaxInitialRead = qint64{8} * 1024 * 1024;

QString textOf(const QJsonValue& v) {
    if (v.isString()) return v.toString();
    if (v.isNull() || v.isUndefined()) return {};
    if (v.isDouble()) return QString::number(v.toDouble(), 'g', 15);
    return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

}  // namespace

AuditLogModel::AuditLogModel(QObject* parent) : QAbstractTableModel(parent) {}

void AuditLogModel::setPath(const QString& path) {
    beginResetModel();
    path_ = path;
    offset_ = 0;
    partial_.clear();
    entries_.clear();
    openIntents_.clear();
    endResetModel();
    QFile file(path_);
    if (file.exists() && file.size() > kMaxInitialRead) offset_ = file.size() - kMaxInitialRead;
    reload();
}

void AuditLogModel::reload() {
    QFile file(path_);
    if (path_.isEmpty() || !file.open(QIODevice::ReadOnly)) return;
    if (file.size() < offset_) {  // truncated or replaced: start over
        offset_ = 0;
        partial_.clear();
        openIntents_.clear();
    }
    file.seek(offset_);
    QByteArray fresh = file.readAll();
    offset_ += fresh.size();
    partial_ += fresh;
    const qsizetype end = partial_.lastIndexOf('\n');
    if (end < 0) return;
    QVector<Entry> added;
    for (const QByteArray& line : partial_.left(end).split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        Entry e = parse(line);
        if (!e.intent && completeIntent(e, added)) continue;
        if (e.intent && !e.id.isEmpty())
            openIntents_.insert(e.id, int(entries_.size() + added.size()));
        added.append(std::move(e));
    }
    partial_.remove(0, end + 1);
    if (added.isEmpty()) return;
    beginInsertRows({}, int(entries_.size()), int(entries_.size() + added.size() - 1));
    entries_ += added;
    endInsertRows();
}

bool AuditLogModel::completeIntent(const Entry& result, QVector<Entry>& added) {
    if (result.id.isEmpty()) return false;
    const auto open = openIntents_.constFind(result.id);
    if (open == openIntents_.constEnd()) return false;
    const int row = *open;
    openIntents_.erase(open);
    Entry& intent = row < entries_.size() ? entries_[row] : added[row - int(entries_.size())];
    intent.cells[Result] = result.cells[Result];
    intent.detail = result.detail;
    intent.intent = false;
    if (row < entries_.size()) emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return true;
}

AuditLogModel::Entry AuditLogModel::parse(const QByteArray& line) {
    Entry e;
    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        e.cells[Result] = tr("unreadable line");
        e.detail = QString::fromUtf8(line.left(400));
        return e;
    }
    QJsonObject o = doc.object();
    QDateTime when = QDateTime::fromString(o.value("time").toString(), Qt::ISODateWithMs);
    e.cells[Time] = when.isValid() ? when.toLocalTime().toString("yyyy-MM-dd hh:mm:ss")
                                   : o.value("time").toString();
    e.cells[User] = textOf(o.value("user"));
    e.cells[Connection] = textOf(o.value("instance"));
    e.cells[Key] = textOf(o.value("key"));
    e.cells[Action] = textOf(o.value("action"));
    e.cells[Result] = textOf(o.value("result"));
    e.id = textOf(o.value("id"));
    e.intent = textOf(o.value("phase")) == QLatin1String("intent");
    // Sent, and no result written (yet, or ever: the window closed or crashed meanwhile).
    if (e.intent) e.cells[Result] = tr("sent: no result recorded yet");
    e.detail = textOf(o.value("detail"));
    QString token = textOf(o.value("token_seen"));
    if (!token.isEmpty()) e.detail += tr("\ntoken seen: %1").arg(token.left(200));
    if (o.contains("ttl_ms")) e.detail += tr("\nTTL: %1 ms").arg(textOf(o.value("ttl_ms")));
    return e;
}

int AuditLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(entries_.size());
}

int AuditLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditLogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry& e = entries_[index.row()];
    if (role == Qt::DisplayRole) return e.cells[index.column()];
    if (role == Qt::ToolTipRole) return e.detail.isEmpty() ? e.cells[index.column()] : e.detail;
    return {};
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[ColumnCount] = {QT_TR_NOOP("Time"),       QT_TR_NOOP("User"),
                                             QT_TR_NOOP("Connection"), QT_TR_NOOP("Key"),
                                             QT_TR_NOOP("Action"),     QT_TR_NOOP("Result")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace lockscope::ui
