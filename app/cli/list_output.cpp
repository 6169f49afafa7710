#include "list_output.h"

#include <algorithm>

#include "lock_table_text.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/record_json.h"
#include "lockscope/text_format.h"

namespace lockscope::cli {
namespace {

// "<instance> <key>: gone since ...", then one indented line per piece of evidence.
std::string evidenceBlock(const inspect::LockRecord& r) {
    const auto& v = *r.liveness;
    std::string out = r.instanceName() + " " + quoted(r.key, 80) + ": " + toString(v.verdict);
    if (v.since) out += " since " + inspect::formatIsoInstant(*v.since);
    out += "\n";
    for (const auto& e : v.evidence)
        out += "  - " + e.text + " (" + inspect::formatIsoInstant(e.seenAt) + ")\n";
    return out;
}

}  // namespace

ListPrinter::ListPrinter(std::FILE* out, ListOutputOptions options,
                         std::vector<std::string> instances)
    : out_(out), options_(options) {
    for (std::size_t i = 0; i < instances.size(); ++i) instanceOrder_.emplace(instances[i], i);
    if (options_.json && !options_.sort) jsonWriter_ = std::make_unique<JsonLineWriter>(out_);
}

void ListPrinter::add(std::vector<inspect::LockRecord>& batch) {
    if (jsonWriter_) {
        {
            std::lock_guard lock(mutex_);
            count_ += batch.size();
        }
        jsonWriter_->push(std::move(batch), inspect::SteadyClock::now());
        batch.clear();
        return;
    }
    std::lock_guard lock(mutex_);
    count_ += batch.size();
    if (options_.orphanEvidence)
        for (const auto& r : batch)
            if (r.liveness && r.liveness->verdict == inspect::Verdict::Gone)
                evidence_ += evidenceBlock(r);
    // A cluster behind one URL: its records name the node that holds them, so the table
    // gets the INSTANCE column (unless rows without it are already out).
    if (!streaming_ && !options_.showInstance)
        options_.showInstance =
            std::any_of(batch.begin(), batch.end(), [this](const inspect::LockRecord& r) {
                return !instanceOrder_.contains(r.instanceName());
            });
    if (streaming_) {
        std::string text;
        const auto now = inspect::SteadyClock::now();
        for (const auto& r : batch)
            text += formatLockTableRow(r, options_.showInstance, keyWidth_, now);
        std::fwrite(text.data(), 1, text.size(), out_);
        return;
    }
    held_.insert(held_.end(), std::make_move_iterator(batch.begin()),
                 std::make_move_iterator(batch.end()));
    if (!options_.json && !options_.sort && held_.size() > options_.tableLimit)
        startStreamingTable();
}

void ListPrinter::startStreamingTable() {
    std::vector<const inspect::LockRecord*> view;
    for (const auto& r : held_) view.push_back(&r);
    keyWidth_ = lockTableKeyWidth(view);
    std::string text = formatLockTableHeader(options_.showInstance, keyWidth_);
    const auto now = inspect::SteadyClock::now();
    for (const auto& r : held_)
        text += formatLockTableRow(r, options_.showInstance, keyWidth_, now);
    std::fwrite(text.data(), 1, text.size(), out_);
    held_.clear();
    held_.shrink_to_fit();
    streaming_ = true;
}

void ListPrinter::sortHeld() {
    auto order = [this](const inspect::LockRecord& r) {
        auto it = instanceOrder_.find(r.instanceName());
        return it == instanceOrder_.end() ? instanceOrder_.size() : it->second;
    };
    std::sort(held_.begin(), held_.end(), [&](const auto& a, const auto& b) {
        auto oa = order(a), ob = order(b);
        if (oa != ob) return oa < ob;
        if (a.instanceName() != b.instanceName()) return a.instanceName() < b.instanceName();
        return a.key < b.key;
    });
}

void ListPrinter::finish(const std::vector<InstanceScan>& scans, bool interrupted) {
    if (jsonWriter_) jsonWriter_->finish();  // every line out before the closing ones
    std::lock_guard lock(mutex_);
    const auto now = inspect::SteadyClock::now();
    const bool anyRead =
        std::any_of(scans.begin(), scans.end(), [](const auto& s) { return !s.error; });
    if (!streaming_) sortHeld();
    if (options_.json) {
        for (const auto& r : held_) std::fprintf(out_, "%s\n", inspect::toJsonLine(r, now).c_str());
        if (interrupted)
            std::fprintf(out_, "{\"partial\":true,\"reason\":\"interrupted\",\"locks\":%llu}\n",
                         static_cast<unsigned long long>(count_));
        return;
    }
    if (!anyRead) return;
    if (!streaming_) {
        std::vector<const inspect::LockRecord*> view;
        for (const auto& r : held_) view.push_back(&r);
        std::fputs(formatLockTable(view, options_.showInstance, now).c_str(), out_);
    }
    std::size_t servers = 0;
    for (const auto& s : scans) servers += s.servers;
    std::fprintf(out_, "%llu %slock%s on %zu instance%s\n", static_cast<unsigned long long>(count_),
                 options_.orphanEvidence ? "orphaned " : "", count_ == 1 ? "" : "s", servers,
                 servers == 1 ? "" : "s");
    if (!evidence_.empty()) std::fprintf(out_, "\nWhy each holder is gone:\n%s", evidence_.c_str());
    if (streaming_)
        std::fprintf(out_,
                     "(more than %zu locks: printed as scanned, unsorted; --sort sorts them, "
                     "holding every lock in memory until the scan ends)\n",
                     options_.tableLimit);
    else
        std::fputs(formatSharedResources(held_).c_str(), out_);
    if (interrupted)
        std::fprintf(out_, "partial: interrupted by Ctrl+C after %llu lock%s\n",
                     static_cast<unsigned long long>(count_), count_ == 1 ? "" : "s");
}

}  // namespace lockscope::cli
