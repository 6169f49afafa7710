#include "lockscope/sim/output_file.h"

namespace lockscope::sim {

int OutputFile::open(const std::string& run) {
    int truncated = 0;
    for (const auto& slot : slots_)
        if (slot && slot->run != run) ++truncated;
    slots_.clear();  // open(path, "w") truncates, whoever else is still writing
    offsets_[run] = 0;
    return truncated;
}

OutputFile::WriteResult OutputFile::writeChunk(const std::string& run, int chunk) {
    int& offset = offsets_[run];
    WriteResult result;
    result.before = describe();
    // Clean only if the file is exactly this run's chunks 0..offset-1.
    bool exact = static_cast<int>(slots_.size()) == offset;
    for (int i = 0; exact && i < offset; ++i)
        exact = slots_[i] && slots_[i]->run == run && slots_[i]->chunk == i;
    result.interleaved = !exact;
    if (static_cast<int>(slots_.size()) <= offset) slots_.resize(offset + 1);
    slots_[offset] = Slot{run, chunk};
    ++offset;
    return result;
}

void OutputFile::close(const std::string& run) {
    offsets_.erase(run);
}

bool OutputFile::intact() const {
    if (slots_.empty()) return false;
    for (std::size_t i = 0; i < slots_.size(); ++i)
        if (!slots_[i] || slots_[i]->run != slots_[0]->run ||
            slots_[i]->chunk != static_cast<int>(i))
            return false;
    return true;
}

std::string OutputFile::describe() const {
    if (slots_.empty()) return "(empty)";
    std::string out;
    for (const auto& slot : slots_) {
        if (!out.empty()) out += ' ';
        out += slot ? slot->run + std::to_string(slot->chunk) : "__";
    }
    return out;
}

}  // namespace lockscope::sim
