#include "lockscope/inspect/scan_options.h"

#include "lockscope/errors.h"

namespace lockscope::inspect {

void validate(const ScanOptions& o) {
    if (o.patterns.empty()) throw InvalidArgumentError("at least one SCAN pattern is needed");
    for (const auto& p : o.patterns) {
        if (p.empty()) throw InvalidArgumentError("a SCAN pattern is empty");
        if (p.size() > 1024) throw InvalidArgumentError("a SCAN pattern is longer than 1024 bytes");
    }
    if (o.count < 1 || o.count > 100000)
        throw InvalidArgumentError("SCAN COUNT must be 1 to 100000");
    if (o.maxHashFields < 1 || o.maxHashFields > 100000)
        throw InvalidArgumentError("the hash field cap must be 1 to 100000");
    if (o.maxValueBytes < 1 || o.maxValueBytes > (64u << 20))
        throw InvalidArgumentError("the value byte cap must be 1 B to 64 MB");
    if (!(o.maxLoad > 0.0 && o.maxLoad <= 1.0))
        throw InvalidArgumentError("the load share must be above 0% and at most 100%");
    if (o.deadline.count() < 0) throw InvalidArgumentError("the scan deadline cannot be negative");
    if (o.layout.lockPrefix == o.layout.fencePrefix && !o.layout.lockPrefix.empty())
        throw InvalidArgumentError("the lock and fence prefixes must differ");
}

}  // namespace lockscope::inspect
