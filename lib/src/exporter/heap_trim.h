#pragma once
// Hands the heap's free pages back to the system. A target's first scan reads its keyspace
// in batches whose records, copies and replies are freed once merged into the table; glibc
// keeps most of that free memory in its arenas (the first census of 1M locks peaked at
// 984 MB against 572 MB in steady state, issue 37 item 7), and a process that is resident
// for weeks should not keep its start-up's peak.

namespace lockscope::exporter {

// malloc_trim(0) where the allocator has it (glibc); nothing elsewhere.
void returnFreeHeapToSystem();

}  // namespace lockscope::exporter
