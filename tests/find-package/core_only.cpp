// LockScope::core alone: the fenced store pulls SQLite in, the connection hiredis.
#include <lockscope/fenced_store.h>

#include <cstdio>

int main() {
    lockscope::FencedStore store(":memory:");
    std::printf("fenced store open\n");
    return 0;
}
