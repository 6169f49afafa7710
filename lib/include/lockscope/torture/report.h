#pragma once
// What a torture run prints: one JSON object (--json) or a text report with the verdict
// per property, the shortest window that shows each violation and the replay command.

#include <string>

#include "lockscope/torture/torture_run.h"

namespace lockscope::torture {

std::string jsonReport(const TortureOptions& options, const TortureResult& result);
std::string textReport(const TortureOptions& options, const TortureResult& result);

}  // namespace lockscope::torture
