// Uses each installed module once: the headers are found, the archives and their
// dependencies (hiredis, SQLite, threads) link, and the version header matches the package.
#include <lockscope/endpoint.h>
#include <lockscope/errors.h>
#include <lockscope/inspect/value_classifier.h>
#include <lockscope/redlock/validity.h>
#include <lockscope/token.h>
#include <lockscope/version.h>

#include <cstdio>
#include <cstring>

int main() {
    auto endpoint = lockscope::parseEndpoint("redis://127.0.0.1:6390/2");
    if (endpoint.port != 6390) return 1;
    try {
        lockscope::parseEndpoint("redis://127.0.0.1:notaport");  // bad input is an error
        return 1;
    } catch (const lockscope::Error&) {
    }
    if (lockscope::randomToken().size() != 32) return 1;
    if (lockscope::redlockQuorum(5) != 3) return 1;
    if (!lockscope::inspect::fenceKeyFor("lock:{report}")) return 1;
    if (std::strlen(lockscope::kVersion) == 0) return 1;
    std::printf("LockScope %s\n", lockscope::kVersion);
    return 0;
}
