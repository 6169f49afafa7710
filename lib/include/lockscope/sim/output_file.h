#pragma once
// The nightly report's output file with a detector for interleaved writers. Each run opens
// the file for writing (which truncates it) and writes its chunks at its own offset, one
// slot per chunk, as separate processes with their own file descriptors would. A chunk
// write is clean only if the file holds exactly this run's earlier chunks; otherwise the
// write lands in a file another run has truncated or filled, and the report is corrupted.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::sim {

class OutputFile {
  public:
    struct Slot {
        std::string run;
        int chunk = 0;
        bool operator==(const Slot&) const = default;
    };
    struct WriteResult {
        bool interleaved = false;
        std::string before;  // the file's content before the write, as describe() shows it
    };

    // Opens for writing; returns how many slots written by other runs were truncated.
    int open(const std::string& run);
    WriteResult writeChunk(const std::string& run, int chunk);
    void close(const std::string& run);

    bool isOpenBy(const std::string& run) const { return offsets_.count(run) > 0; }
    // One run's chunks 0..n-1, in order, with no holes (an empty file is not intact).
    bool intact() const;
    bool empty() const { return slots_.empty(); }
    // "A0 A1 B2 __": each slot as run name and chunk, "__" for a hole.
    std::string describe() const;

  private:
    std::vector<std::optional<Slot>> slots_;
    std::map<std::string, int> offsets_;  // open writers and their next chunk offset
};

}  // namespace lockscope::sim
