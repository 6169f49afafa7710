#include "lockscope/sim/jepsen_history.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "lockscope/edn_string.h"
#include "lockscope/errors.h"

namespace lockscope::sim {

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

std::string historyToJson(const std::vector<HistoryOp>& history) {
    nlohmann::json ops = nlohmann::json::array();
    for (const HistoryOp& op : history)
        ops.push_back({{"type", toString(op.type)},
                       {"process", op.process},
                       {"f", op.f},
                       {"value", op.owner < 0 ? nlohmann::json(nullptr) : nlohmann::json(op.owner)},
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
               std::to_string(op.process) + ", :f :" + op.f + ", :value " +
               (op.owner < 0 ? std::string("nil") : std::to_string(op.owner)) + ", :time " +
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
