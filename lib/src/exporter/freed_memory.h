#pragma once
// After a census, the memory its copies used goes back to the system. glibc keeps freed
// chunks in the arena of the thread that freed them; with a watch thread per /scrape target
// a large part of the exporter's resident memory (issue 37). malloc_trim walks every arena under
// its lock, so it runs at most once every few seconds process-wide, whichever census asks.

namespace lockscope::exporter {

void releaseFreedMemory();

}  // namespace lockscope::exporter
