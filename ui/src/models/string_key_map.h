#pragma once
// A QString-keyed node map for tables of a million rows. Growing it relinks nodes instead of
// moving every entry (QHash moves them: a stall at each doubling), node addresses stay valid,
// and each node keeps its key's hash, so growing never hashes a key again.

#include <QHash>
#include <QString>
#include <cstddef>
#include <unordered_map>

namespace lockscope::ui {

struct StoredQStringHash {
    // Deliberately not noexcept: libstdc++ stores the hash in each node exactly when the
    // hasher may throw (or is marked slow), and a rehash then reuses it.
    std::size_t operator()(const QString& s) const { return qHash(s); }
};

template <typename T>
using StringKeyMap = std::unordered_map<QString, T, StoredQStringHash>;

}  // namespace lockscope::ui
