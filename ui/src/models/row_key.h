#pragma once
// A row of the lock table: the lock's key on one instance (a server, or a cluster node). The
// same key on two nodes is two rows. Replaces the "instance\nkey" strings that every user
// had to split again.

#include <QHash>
#include <QMetaType>
#include <QString>
#include <cstddef>
#include <unordered_map>

namespace lockscope::ui {

struct RowKey {
    QString instance;
    QString key;
    bool isEmpty() const { return instance.isEmpty() && key.isEmpty(); }
    bool operator==(const RowKey&) const = default;
};

struct StoredRowKeyHash {
    // Deliberately not noexcept: libstdc++ stores the hash in each node exactly when the
    // hasher may throw (or is marked slow), and growing a million-row table then never
    // hashes a key again.
    std::size_t operator()(const RowKey& row) const { return qHashMulti(0, row.instance, row.key); }
};

// A node map keyed by row for tables of a million rows: growing it relinks nodes instead of
// moving every entry (QHash moves them: a stall at each doubling), and node addresses stay
// valid.
template <typename T>
using RowKeyMap = std::unordered_map<RowKey, T, StoredRowKeyHash>;

}  // namespace lockscope::ui

Q_DECLARE_METATYPE(lockscope::ui::RowKey)
