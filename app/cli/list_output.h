#pragma once
// What `list` prints while the servers are still being scanned. JSON lines go out batch by
// batch as they arrive, formatted on a writer thread (memory: a few batches). The text table is
// sorted by instance and key when the listing is small; past tableLimit locks it streams in scan
// order and says so. --sort holds every lock and prints at the end, sorted, whatever the format.

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "instance_scan.h"
#include "json_line_writer.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::cli {

struct ListOutputOptions {
    bool json = false;
    bool sort = false;          // hold everything and sort (by instance, then key)
    bool showInstance = false;  // the table's INSTANCE column
    std::size_t tableLimit = 10'000;
    bool orphanEvidence = false;  // the table is followed by each gone lock's evidence
};

class ListPrinter {
  public:
    // instances: the servers' display names in command-line order (the sort order).
    ListPrinter(std::FILE* out, ListOutputOptions options, std::vector<std::string> instances);

    // A sink for streamInstances(): safe to call from several threads at once.
    void add(std::vector<inspect::LockRecord>& batch);

    // Prints what is still held and the table's closing lines (the count, and whether the
    // listing is partial because Ctrl+C stopped it).
    void finish(const std::vector<InstanceScan>& scans, bool interrupted);

    std::uint64_t printed() const { return count_; }

  private:
    void startStreamingTable();  // caller holds mutex_
    void sortHeld();

    std::FILE* out_;
    ListOutputOptions options_;
    std::map<std::string, std::size_t> instanceOrder_;
    std::mutex mutex_;
    std::vector<inspect::LockRecord> held_;
    bool streaming_ = false;  // the table went past tableLimit and prints as it comes
    std::size_t keyWidth_ = 0;
    std::uint64_t count_ = 0;
    std::unique_ptr<JsonLineWriter> jsonWriter_;  // unsorted --json: formats off the scan
    std::string evidence_;  // orphanEvidence: one block per gone lock, printed at the end
};

}  // namespace lockscope::cli
