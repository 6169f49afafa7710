#pragma once
// Doctor findings as the table and the detail pane show them.

#include <QString>
#include <QStringList>
#include <cstdint>

namespace lockscope::ui {

QStringList findingIds(std::uint32_t findings);     // stable ids, e.g. "no-ttl"
QStringList findingLabels(std::uint32_t findings);  // short badge texts
QString findingTooltips(std::uint32_t findings);    // title and explanation of each, rich text
QString findingDetails(std::uint32_t findings);     // title, explanation and the guide's fix

}  // namespace lockscope::ui
