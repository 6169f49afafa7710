#pragma once
// Doctor findings as the table and the detail pane show them.

#include <QColor>
#include <QString>
#include <QStringList>
#include <cstdint>

#include "lockscope/inspect/doctor.h"

namespace lockscope::ui {

QStringList findingIds(std::uint32_t findings);     // stable ids, e.g. "no-ttl"
QStringList findingLabels(std::uint32_t findings);  // short badge texts
QString findingTooltips(std::uint32_t findings);    // title and explanation of each, rich text
// Title, severity, explanation (for no-ttl, what makes one for this kind) and the fix.
QString findingDetails(std::uint32_t findings, inspect::LockKind kind = inspect::LockKind::Unknown);
// The severity of a finding by its id (Info for an unknown id).
inspect::Severity findingSeverity(const QString& id);
// Distinct colours: problem red, warning amber, information blue; readable on light and dark.
QColor severityColor(inspect::Severity severity);
QString severityName(inspect::Severity severity);  // "problem", "warning", "information"

}  // namespace lockscope::ui
