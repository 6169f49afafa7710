#pragma once
// The audit log (JSON lines, lib's AuditLog) as a table: time, user, connection, key, action,
// result, with the detail as tooltip. Reads the file incrementally: reload() appends the lines
// written since the last read, so a long log is parsed once. Lines that are not JSON objects
// (a torn write, a hand edit) are listed as such, never dropped silently.

#include <QAbstractTableModel>
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
    };
    static Entry parse(const QByteArray& line);

    QString path_;
    qint64 offset_ = 0;
    QByteArray partial_;  // a line not yet ended by '\n'
    QVector<Entry> entries_;
};

}  // namespace lockscope::ui
