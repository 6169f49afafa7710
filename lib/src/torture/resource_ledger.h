#pragma once
// The shared resource the workers protect: a real SQLite file (the guide's fenced store)
// that logs every write attempt in one global order, with its writer, round, token and
// fence, and whether it was taken. With fence checking on it refuses a write whose fence is
// older than the newest accepted one (or equal to it from another holder); off, it takes
// every write, as an unfenced resource would. Several processes write to one file.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lockscope/torture/history.h"

struct sqlite3;

namespace lockscope::torture {

class ResourceLedger {
  public:
    ResourceLedger(const std::string& path, bool checkFences);
    ~ResourceLedger();
    ResourceLedger(const ResourceLedger&) = delete;
    ResourceLedger& operator=(const ResourceLedger&) = delete;

    // Records the attempt and returns whether the resource accepted it. Throws
    // StorageError when SQLite fails.
    bool write(int writer, int round, std::string_view token, std::optional<std::int64_t> fence,
               std::string_view phase, std::int64_t timeNs);

    // Every attempt, in the global order, as resource entries of a history.
    History entries();

  private:
    void exec(const char* sql);
    [[noreturn]] void fail(const std::string& what);

    sqlite3* db_ = nullptr;
    bool checkFences_;
    std::string path_;
};

}  // namespace lockscope::torture
