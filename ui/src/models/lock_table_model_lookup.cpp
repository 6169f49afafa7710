// LockTableModel's lookups: a row by key or position, the rows of an instance or a resource,
// the lock counts per instance, and the filter's match.

#include <algorithm>

#include "lockscope/inspect/doctor.h"
#include "models/lock_table_model.h"

namespace lockscope::ui {

QHash<QString, int> LockTableModel::rowCountsByInstance() const {
    QHash<QString, int> byName;
    for (const auto& [name, count] : rowsPerInstance_)
        if (count > 0) byName.insert(QString::fromStdString(name), count);
    return byName;
}

std::vector<int> LockTableModel::idsOfInstance(const std::string& instance) const {
    std::vector<int> ids;
    for (int p = 0; p < order_.size(); ++p)
        if (rowAt(p).record->instanceName() == instance) ids.push_back(order_.idAt(p));
    return ids;
}

std::vector<LockTableModel::Record> LockTableModel::recordsOfResource(
    std::string_view resource) const {
    std::vector<Record> out;
    for (int p = 0; p < order_.size(); ++p) {
        const Record& r = *rowAt(p).record;
        if (r.resource() == resource && r.kind != inspect::LockKind::NotALock) out.push_back(r);
    }
    return out;
}

const LockTableModel::Record* LockTableModel::recordAt(int row) const {
    return row >= 0 && row < order_.size() ? rowAt(row).record.get() : nullptr;
}

int LockTableModel::rowOf(const QString& instance, const QString& key) const {
    const int id = idOf(instance.toStdString(), key.toStdString());
    return id < 0 ? -1 : order_.positionOf(id);
}

bool LockTableModel::rowMatches(int row, const std::string& lowerText) const {
    if (lowerText.empty()) return true;
    auto contains = [&](std::string_view haystack) {
        auto lowerEquals = [](char a, char b) {
            return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
        };
        return std::search(haystack.begin(), haystack.end(), lowerText.begin(), lowerText.end(),
                           lowerEquals) != haystack.end();
    };
    const Record& r = *rowAt(row).record;
    if (contains(r.instanceName()) || contains(r.key) || contains(inspect::toString(r.kind)) ||
        contains(r.token))
        return true;
    // The connection's name, as the Instance column shows it (a table of many connections).
    if (const auto named = lowerNames_.find(r.instanceName());
        named != lowerNames_.end() && contains(named->second))
        return true;
    for (const auto& f : r.fields)
        if (contains(f.field) || contains(f.value)) return true;
    for (const std::string& rule : inspect::ruleNames(r.findings))
        if (contains(rule)) return true;
    return false;
}

}  // namespace lockscope::ui
