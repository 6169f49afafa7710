#pragma once
// Where a bench finds its peer scripts (redis-py, node-redlock): LOCKSCOPE_BENCH_DIR when
// ./scripts/bench sets it, else this source folder as CMake names it. Not __FILE__, which a
// compiler cache with a base directory turns into a path relative to the build folder.

#include <cstdlib>
#include <filesystem>
#include <string>

namespace lockscope::bench {

inline std::filesystem::path benchScript(const std::string& name) {
    const char* dir = std::getenv("LOCKSCOPE_BENCH_DIR");
    return std::filesystem::path(dir ? dir : LOCKSCOPE_BENCH_SOURCE_DIR) / name;
}

}  // namespace lockscope::bench
