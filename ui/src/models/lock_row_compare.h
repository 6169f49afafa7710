#pragma once
// How the lock table orders two records by one of its columns, on the records themselves
// (no QVariant, no QString): sorting a million rows calls this some twenty million times.
// "Remaining TTL" compares expiry deadlines (observed instant + PTTL), which do not move as
// the countdown runs, so the order by remaining TTL stays right between polls without
// re-sorting; locks without a TTL sort after every deadline.

#include <cstdint>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::ui {

// <0, 0 or >0 as a sorts before, with, or after b in ascending order of the column (a
// LockTableModel::Column). The model keeps equal records in the order they arrived.
int compareLockRecords(const inspect::LockRecord& a, const inspect::LockRecord& b, int column);

// Columns whose order is that of one number per record: the model keeps that number beside
// each row, so comparing two rows is comparing two integers.
bool isNumericColumn(int column);
std::int64_t numericSortKey(const inspect::LockRecord& r, int column);

}  // namespace lockscope::ui
