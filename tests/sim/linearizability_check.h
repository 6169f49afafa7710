#pragma once
// A hand-written linearizability checker for the stories' exported lock histories (no
// maintained checker installs here: Knossos needs Clojure, Porcupine Go, and the npm registry
// has none). It is Wing & Gong's search (1993) with Lowe's memo of visited (linearized set,
// model state) pairs, over a lock model: acquire succeeds only while the lock is free and
// makes its process the holder; release succeeds only for the holder; a failed acquire means
// someone held it; a failed release means the caller did not. A release with a :value frees
// that process's lock (an operator releasing a dead holder's). A history is linearizable when
// some total order of its operations respects real time (an operation that completed before
// another was invoked comes first) and the model gives every operation its recorded result.
// An :info operation (outcome unknown) may take effect at any time after its invoke, or never
// (Knossos's rule): it never completes, and the order may leave it out.

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lockscope::testing {

struct LockOperation {
    int process = 0;
    bool acquire = true;  // else release
    bool ok = false;
    bool unknown = false;  // :info: took effect (as ok) or never
    std::int64_t invoked = 0, completed = 0;
    int owner = -1;  // a release's :value: whose lock it frees (-1: its own)
};

// Pairs each :invoke of a JSON history (historyToJson) with its process's next completion.
inline std::vector<LockOperation> lockOperations(const nlohmann::json& history) {
    std::vector<LockOperation> ops;
    std::vector<std::pair<int, std::size_t>> pending;  // process → index in ops
    for (const auto& entry : history) {
        const int process = entry.at("process").get<int>();
        const std::string type = entry.at("type").get<std::string>();
        if (type == "invoke") {
            const auto& value = entry.at("value");
            ops.push_back({process, entry.at("f").get<std::string>() == "acquire", false, false,
                           entry.at("time").get<std::int64_t>(), 0,
                           value.is_null() ? -1 : value.get<int>()});
            pending.emplace_back(process, ops.size() - 1);
            continue;
        }
        auto it = std::find_if(pending.begin(), pending.end(),
                               [&](const auto& p) { return p.first == process; });
        if (it == pending.end()) throw std::runtime_error("a completion without an invoke");
        LockOperation& op = ops[it->second];
        op.unknown = type == "info";
        op.ok = type == "ok" || op.unknown;
        op.completed = op.unknown ? INT64_MAX : entry.at("time").get<std::int64_t>();
        pending.erase(it);
    }
    if (!pending.empty()) throw std::runtime_error("an invoke without a completion");
    return ops;
}

class LockLinearizability {
  public:
    explicit LockLinearizability(std::vector<LockOperation> ops)
        : ops_(std::move(ops)), done_(ops_.size(), false) {
        for (const LockOperation& op : ops_) required_ += op.unknown ? 0 : 1;
    }

    bool linearizable() { return search(-1, 0); }

  private:
    // The lock model: the next state, or nothing when `op` cannot have its recorded result.
    static std::optional<int> apply(int holder, const LockOperation& op) {
        if (op.acquire) {
            if (op.ok) return holder == -1 ? std::optional<int>(op.process) : std::nullopt;
            return holder != -1 ? std::optional<int>(holder) : std::nullopt;
        }
        const int releases = op.owner >= 0 ? op.owner : op.process;
        if (op.ok) return holder == releases ? std::optional<int>(-1) : std::nullopt;
        return holder != releases ? std::optional<int>(holder) : std::nullopt;
    }

    // `linearized` counts the operations with a known outcome placed so far.
    bool search(int holder, std::size_t linearized) {
        if (linearized == required_) return true;
        if (!seen_.emplace(done_, holder).second) return false;  // Lowe's memo
        // Only an operation invoked before every pending one completed can go next.
        std::int64_t firstCompletion = INT64_MAX;
        for (std::size_t i = 0; i < ops_.size(); ++i)
            if (!done_[i]) firstCompletion = std::min(firstCompletion, ops_[i].completed);
        for (std::size_t i = 0; i < ops_.size(); ++i) {
            if (done_[i] || ops_[i].invoked > firstCompletion) continue;
            const std::optional<int> next = apply(holder, ops_[i]);
            if (!next) continue;
            done_[i] = true;
            if (search(*next, linearized + (ops_[i].unknown ? 0 : 1))) return true;
            done_[i] = false;
        }
        return false;
    }

    std::vector<LockOperation> ops_;
    std::vector<bool> done_;
    std::size_t required_ = 0;
    std::set<std::pair<std::vector<bool>, int>> seen_;
};

inline bool linearizableAsLock(const nlohmann::json& history) {
    return LockLinearizability(lockOperations(history)).linearizable();
}

}  // namespace lockscope::testing
