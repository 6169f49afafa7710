#include "models/lock_row_compare.h"

#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/lock_age.h"

#include <bit>
#include <chrono>
#include <cstring>
#include <limits>
#include <tuple>

#include "models/liveness_text.h"
#include "models/lock_table_model.h"

namespace lockscope::ui {
namespace {

using inspect::LockRecord;

template <typename T>
int threeWay(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

int compareHolders(const LockRecord& a, const LockRecord& b) {
    if (int c = a.token.compare(b.token)) return c;
    auto key = [](const inspect::HashField& f) { return std::tie(f.field, f.value); };
    for (std::size_t i = 0; i < a.fields.size() && i < b.fields.size(); ++i)
        if (int c = threeWay(key(a.fields[i]), key(b.fields[i]))) return c;
    return threeWay(a.fields.size(), b.fields.size());
}

}  // namespace

bool isNumericColumn(int column) {
    switch (column) {
        case LockTableModel::Remaining:
        case LockTableModel::Fence:
        case LockTableModel::SeenFor:
        case LockTableModel::Age:
        case LockTableModel::Renewals:
        case LockTableModel::Findings:
        case LockTableModel::Alive:
            return true;
    }
    return false;
}

std::int64_t numericSortKey(const LockRecord& r, int column) {
    using std::chrono::nanoseconds;
    auto ticks = [](inspect::SteadyClock::time_point t) { return t.time_since_epoch().count(); };
    switch (column) {
        // The expiry deadline; locks without a TTL after every deadline.
        case LockTableModel::Remaining:
            return r.hasTtl() ? ticks(r.observedAt + std::chrono::milliseconds(r.pttlMs))
                              : std::numeric_limits<std::int64_t>::max();
        case LockTableModel::Fence:
            return r.fence.value_or(-1);
        // Held for longer = the holder changed earlier: ascending puts the newest holder first.
        case LockTableModel::SeenFor:
            return -ticks(r.lastChange);
        // Older = acquired earlier; unknown ages after every known one.
        case LockTableModel::Age: {
            auto now = inspect::SteadyClock::now();
            inspect::LockAge age = inspect::estimateAge(r, now, inspect::WallClock::now());
            if (age.source == inspect::AgeSource::Unknown)
                return std::numeric_limits<std::int64_t>::max();
            return -ticks(now - std::chrono::milliseconds(age.ms));
        }
        case LockTableModel::Renewals:
            return r.renewals;
        case LockTableModel::Findings:
            return (std::int64_t(std::popcount(r.findings)) << 32) | r.findings;
        case LockTableModel::Alive:
            return livenessRank(r);
    }
    return 0;
}

int compareLockRecords(const LockRecord& a, const LockRecord& b, int column) {
    if (isNumericColumn(column))
        return threeWay(numericSortKey(a, column), numericSortKey(b, column));
    switch (column) {
        case LockTableModel::Instance:
        case LockTableModel::Node:  // one node per instance: grouped alike
            return a.instanceName().compare(b.instanceName());
        case LockTableModel::Key:
            return a.key.compare(b.key);
        // A resource's lock before the keys that belong to it (a sidekiq digest's lists and
        // info, Redisson's queue and fence token): ordered by resource, each shows as a group.
        case LockTableModel::Resource:
            if (int c = a.resource().compare(b.resource())) return c;
            return threeWay(inspect::isLockCompanion(a), inspect::isLockCompanion(b));
        case LockTableModel::Kind:
            return std::strcmp(inspect::toString(a.kind), inspect::toString(b.kind));
        case LockTableModel::Holder:
            return compareHolders(a, b);
    }
    return 0;
}

}  // namespace lockscope::ui
