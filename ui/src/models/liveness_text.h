#pragma once
// Is the holder alive? (issue 31) as the window shows it: the lock table's "Alive?" column
// (a colour, a few words, the evidence in its tooltip), the detail pane's section and the
// release confirmation. The verdict is the engine's (LivenessReader): this file only words
// it, and says "not judged" where no reader looked, never a guess.

#include <QColor>
#include <QString>
#include <optional>

#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::ui {

// "alive · 3 min" (held since), "gone · 2 min ago" (its last sign of life), "unknown", or "—" when
// no reader judged the lock (a kind that is no lock, or liveness off).
QString livenessLabel(const inspect::LockRecord& record, inspect::WallClock::time_point now);
// Every evidence line with when it was seen, one per line, plain text (the tooltip).
QString livenessEvidence(const inspect::LockRecord& record, inspect::WallClock::time_point now);
// The detail pane's section: the verdict in words and what it means for a release, then the
// evidence, as rich text.
QString livenessDetails(const inspect::LockRecord& record, inspect::WallClock::time_point now);
// One paragraph for the release confirmation: the verdict and why; a live holder is a warning.
QString livenessForConfirmation(const inspect::LockRecord& record,
                                inspect::WallClock::time_point now);
// Green alive, red gone, grey unknown; nullopt when not judged.
std::optional<QColor> livenessColor(const inspect::LockRecord& record);
// Sort order of the column: gone first (what an operator looks for), then unknown, alive,
// and locks not judged last.
int livenessRank(const inspect::LockRecord& record);
bool isOrphan(const inspect::LockRecord& record);

}  // namespace lockscope::ui
