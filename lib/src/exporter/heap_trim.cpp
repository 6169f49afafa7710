#include "heap_trim.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lockscope::exporter {

void returnFreeHeapToSystem() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

}  // namespace lockscope::exporter
