#pragma once
// A hand-written linearizability checker for the stories' exported lock histories (no
// maintained checker installs here: Knossos needs Clojure, Porcupine Go, and the npm registry
// has none). It is Wing & Gong's search (1993) with Lowe's memo of visited (linearized set,
// model state) pairs, over a lock model: acquire succeeds only while the lock is free and
// makes its process the holder; release succeeds only for the holder; a failed acquire means
// someone held it; a failed release means the caller did not. A history is linearizable when
// some total order of its operations respects real time (an operation that completed before
// another was invoked comes first) and the model gives every operation its recorded result.

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
    std::int64_t invoked = 0, completed = 0;
};

// Pairs each :invoke of a JSON history (historyToJson) with its process's next completion.
inline std::vector<LockOperation> lockOperations(const nlohmann::json& history) {
    std::vector<LockOperation> ops;
    std::vector<std::pair<int, std::size_t>> pending;  // process → index in ops
    for (const auto& entry : history) {
        const int process = entry.at("process").get<int>();
        const std::string type = entry.at("type").get<std::string>();
        if (type == "invoke") {
            ops.push_back({process, entry.at("f").get<std::string>() == "acquire", false,
                           entry.at("time").get<std::int64_t>(), 0});
            pending.emplace_back(process, ops.size() - 1);
            continue;
        }
        auto it = std::find_if(pending.begin(), pending.end(),
                               [&](const auto& p) { return p.first == process; });
        if (it == pending.end()) throw std::runtime_error("a completion without an invoke");
        ops[it->second].ok = type == "ok";
        ops[it->second].completed = entry.at("time").get<std::int64_t>();
        pending.erase(it);
    }
    if (!pending.empty()) throw std::runtime_error("an invoke without a completion");
    return ops;
}

class LockLinearizability {
  public:
    explicit LockLinearizability(std::vector<LockOperation> ops)
        : ops_(std::move(ops)), done_(ops_.size(), false) {}

    bool linearizable() { return search(-1, 0); }

  private:
    // The lock model: the next state, or nothing when `op` cannot have its recorded result.
    static std::optional<int> apply(int holder, const LockOperation& op) {
        if (op.acquire) {
            if (op.ok) return holder == -1 ? std::optional<int>(op.process) : std::nullopt;
            return holder != -1 ? std::optional<int>(holder) : std::nullopt;
        }
        if (op.ok) return holder == op.process ? std::optional<int>(-1) : std::nullopt;
        return holder != op.process ? std::optional<int>(holder) : std::nullopt;
    }

    bool search(int holder, std::size_t linearized) {
        if (linearized == ops_.size()) return true;
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
            if (search(*next, linearized + 1)) return true;
            done_[i] = false;
        }
        return false;
    }

    std::vector<LockOperation> ops_;
    std::vector<bool> done_;
    std::set<std::pair<std::vector<bool>, int>> seen_;
};

inline bool linearizableAsLock(const nlohmann::json& history) {
    return LockLinearizability(lockOperations(history)).linearizable();
}

}  // namespace lockscope::testing
