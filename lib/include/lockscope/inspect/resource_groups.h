#pragma once
// The same resource locked on several instances (Redlock's N primaries, or a lock that a
// failover duplicated): records grouped by resource name across instances.

#include <cstddef>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

struct ResourceGroup {
    std::string resource;
    std::vector<std::size_t> records;  // indices into the input, in input order
    std::size_t instances = 0;         // distinct instances among them
    bool sameHolder = true;            // every holder token/fields is the same
};

// Groups in order of first appearance. Records of kind NotALock are left out.
std::vector<ResourceGroup> groupByResource(const std::vector<LockRecord>& records);

}  // namespace lockscope::inspect
