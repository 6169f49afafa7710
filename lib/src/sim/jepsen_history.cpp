#include "lockscope/sim/jepsen_history.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "lockscope/edn_string.h"
#include "lockscope/errors.h"

namespace lockscope::sim {

namespace {

bool replySucceeded(const std::string& reply) {
    if (reply == "OK") return true;
    const std::string prefix = "(integer) ";
    if (reply.starts_with(prefix))
        return reply.size() > prefix.size() && reply.substr(prefix.size()) != "0";
    return false;
}

bool isLockCommand(const TimelineEvent& e) {
    return e.kind == EventKind::Command && (e.lockOp == "acquire" || e.lockOp == "release");
}

}  // namespace

const char* toString(HistoryType type) {
    switch (type) {
        case HistoryType::Invoke:
            return "invoke";
        case HistoryType::Ok:
            return "ok";
        case HistoryType::Fail:
            return "fail";
        case HistoryType::Info:
            return "info";
    }
    return "info";
}

std::vector<HistoryOp> lockHistory(const Recording& recording) {
    std::vector<HistoryOp> history;
    std::vector<int> processOfLane(recording.lanes.size(), -1);
    int processes = 0;
    for (const Lane& lane : recording.lanes)
        if (lane.kind == LaneKind::Instance) processOfLane[lane.id] = processes++;
    const auto& events = recording.events;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const TimelineEvent& first = events[i];
        if (!isLockCommand(first) || first.lane < 0 ||
            first.lane >= static_cast<LaneId>(processOfLane.size()) ||
            processOfLane[first.lane] < 0)
            continue;
        // One operation: this command and the same kind the same actor sent in the same step
        // (a Redlock client's round to every node).
        int sent = 0, granted = 0;
        std::size_t last = i;
        for (std::size_t j = i; j < events.size() && events[j].step == first.step; ++j) {
            const TimelineEvent& e = events[j];
            if (e.kind != EventKind::Command || e.lane != first.lane) continue;
            if (e.lockOp != first.lockOp || e.key != first.key) break;
            last = j;
            // NOSCRIPT is answered before the script runs; the client's EVAL is the attempt.
            if (e.reply.starts_with("(error) NOSCRIPT")) continue;
            ++sent;
            granted += replySucceeded(e.reply);
        }
        const bool ok = sent <= 1 ? granted == 1 : granted * 2 > sent;
        const int process = processOfLane[first.lane];
        const std::string& actor = recording.lanes[first.lane].name;
        history.push_back({HistoryType::Invoke, process, first.lockOp, first.time * 1'000'000,
                           static_cast<int>(history.size()), first.key, actor});
        history.push_back({ok ? HistoryType::Ok : HistoryType::Fail, process, first.lockOp,
                           events[last].time * 1'000'000, static_cast<int>(history.size()),
                           first.key, actor});
        // Skip the commands folded into this operation.
        for (std::size_t j = i + 1; j <= last; ++j)
            if (events[j].lane == first.lane && isLockCommand(events[j])) i = j;
    }
    return history;
}

std::string historyToJson(const std::vector<HistoryOp>& history) {
    nlohmann::json ops = nlohmann::json::array();
    for (const HistoryOp& op : history)
        ops.push_back({{"type", toString(op.type)},
                       {"process", op.process},
                       {"f", op.f},
                       {"value", nullptr},
                       {"time", op.timeNs},
                       {"index", op.index},
                       {"key", op.key},
                       {"actor", op.actor}});
    return ops.dump(1) + "\n";
}

std::string historyToEdn(const std::vector<HistoryOp>& history) {
    std::string out;
    for (const HistoryOp& op : history)
        out += "{:type :" + std::string(toString(op.type)) + ", :process " +
               std::to_string(op.process) + ", :f :" + op.f + ", :value nil, :time " +
               std::to_string(op.timeNs) + ", :index " + std::to_string(op.index) + ", :key " +
               ednString(op.key) + ", :actor " + ednString(op.actor) + "}\n";
    return out;
}

void writeHistoryFile(const std::string& path, const std::vector<HistoryOp>& history) {
    const bool edn = path.size() >= 4 && path.compare(path.size() - 4, 4, ".edn") == 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw InvalidArgumentError("cannot write the history to " + path);
    out << (edn ? historyToEdn(history) : historyToJson(history));
    out.close();
    if (!out) throw InvalidArgumentError("cannot write the history to " + path);
}

}  // namespace lockscope::sim
