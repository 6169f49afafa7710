#pragma once
// Whether the window's command log has a line containing text: how the UI tests see that an
// event (a topology change, a failover) was logged for the operator.

#include <QString>

#include "models/command_log_model.h"

namespace lockscope::ui::testing {

inline bool commandLogContains(const CommandLogModel& log, const QString& text) {
    for (int row = 0; row < log.rowCount(); ++row)
        if (log.index(row, CommandLogModel::Command).data().toString().contains(text)) return true;
    return false;
}

// The log's lines that contain text, one per line: what a failed check prints.
inline QString commandLogLinesWith(const CommandLogModel& log, const QString& text) {
    QString lines;
    for (int row = 0; row < log.rowCount(); ++row)
        if (const QString line = log.index(row, CommandLogModel::Command).data().toString();
            line.contains(text))
            lines += line + QLatin1Char('\n');
    return lines;
}

}  // namespace lockscope::ui::testing
