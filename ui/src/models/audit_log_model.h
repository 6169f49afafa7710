#pragma once
// The audit log (JSON lines, lib's AuditLog) as a table: time, user, connection, key, action,
// result, with the detail as tooltip. Reads the file incrementally: reload() appends the lines
// written since the last read, so a long log is parsed once. Lines that are not JSON objects
// (a torn write, a hand edit) are listed as such, never dropped silently. An action's intent
// (written before it is sent) and its result (same id) are one row: the intent's row gets the
// result when it arrives; until then its Result says the outcome is not recorded yet.

#include <QAbstractTableModel>
#include <QHash>
#include <QString>
#include <QVector>
#include <array>

namespace lockscope::ui {

class AuditLogModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Time, User, Connection, Key, Action, Result, ColumnCount };

    explicit AuditLogModel(QObject* parent = nullptr);

    // Reads the file from the start (a new path) or what was appended since (same path).
    void setPath(const QString& path);
    void reload();
    const QString& path() const { return path_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Entry {
        std::array<QString, ColumnCount> cells;
        QString detail;  // detail and token seen, for the tooltip
        QString id;      // pairs an intent with its result
        bool intent = false;
    };
    static Entry parse(const QByteArray& line);
    // A result whose intent has a row already: fills that row in. False: it is a row of its own.
    bool completeIntent(const Entry& result, QVector<Entry>& added);

    QString path_;
    qint64 offset_ = 0;
    QByteArray partial_;  // a line not yet ended by '\n'
    QVector<Entry> entries_;
    QHash<QString, int> openIntents_;  // id -> row of an intent with no result yet
};

}  // namespace lockscope::ui
