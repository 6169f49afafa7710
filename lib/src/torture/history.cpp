#include "lockscope/torture/history.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lockscope/edn_string.h"
#include "lockscope/errors.h"

namespace lockscope::torture {
namespace {

using Json = nlohmann::ordered_json;

const char* processName(int process) {
    return process == kNemesis ? "nemesis" : process == kResource ? "resource" : nullptr;
}

OpType typeFromString(const std::string& s) {
    if (s == "invoke") return OpType::Invoke;
    if (s == "ok") return OpType::Ok;
    if (s == "fail") return OpType::Fail;
    if (s == "info") return OpType::Info;
    throw InvalidArgumentError("history: unknown operation type \"" + s +
                               "\" (expected invoke, ok, fail or info)");
}

Json toJsonObject(const Op& op) {
    Json j;
    j["type"] = toString(op.type);
    j["f"] = op.f;
    if (const char* name = processName(op.process))
        j["process"] = name;
    else
        j["process"] = op.process;
    j["time"] = op.timeNs;
    Json value = Json::object();
    if (!op.token.empty()) value["token"] = op.token;
    if (op.fence) value["fence"] = *op.fence;
    if (op.round) value["round"] = op.round;
    if (op.process == kResource) {
        value["seq"] = op.seq;
        value["writer"] = op.writer;
        value["accepted"] = op.accepted;
    }
    if (!op.phase.empty()) value["phase"] = op.phase;
    if (!op.detail.empty()) value["detail"] = op.detail;
    j["value"] = std::move(value);
    return j;
}

template <typename T>
T field(const Json& j, const char* name, const T& fallback) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return fallback;
    try {
        return it->get<T>();
    } catch (const Json::exception&) {
        throw InvalidArgumentError(std::string("history: field \"") + name +
                                   "\" has the wrong type");
    }
}

Op fromJsonObject(const Json& j) {
    if (!j.is_object()) throw InvalidArgumentError("history: an operation must be a JSON object");
    for (const char* required : {"type", "f", "process", "time"})
        if (!j.contains(required))
            throw InvalidArgumentError(std::string("history: operation without \"") + required +
                                       "\"");
    Op op;
    op.type = typeFromString(field<std::string>(j, "type", ""));
    op.f = field<std::string>(j, "f", "");
    const Json& process = j["process"];
    if (process.is_string()) {
        std::string name = process.get<std::string>();
        if (name == "nemesis")
            op.process = kNemesis;
        else if (name == "resource")
            op.process = kResource;
        else
            throw InvalidArgumentError("history: unknown process \"" + name + "\"");
    } else if (process.is_number_integer() && process.get<int>() >= 0) {
        op.process = process.get<int>();
    } else {
        throw InvalidArgumentError("history: process must be a worker number, nemesis or resource");
    }
    op.timeNs = field<std::int64_t>(j, "time", 0);
    Json value = j.contains("value") && j["value"].is_object() ? j["value"] : Json::object();
    op.token = field<std::string>(value, "token", "");
    if (value.contains("fence") && !value["fence"].is_null())
        op.fence = field<std::int64_t>(value, "fence", 0);
    op.round = field<int>(value, "round", 0);
    op.seq = field<std::int64_t>(value, "seq", 0);
    op.writer = field<int>(value, "writer", -1);
    op.accepted = field<bool>(value, "accepted", true);
    op.phase = field<std::string>(value, "phase", "");
    op.detail = field<std::string>(value, "detail", "");
    return op;
}

}  // namespace

const char* toString(OpType type) {
    switch (type) {
        case OpType::Invoke:
            return "invoke";
        case OpType::Ok:
            return "ok";
        case OpType::Fail:
            return "fail";
        case OpType::Info:
            return "info";
    }
    return "info";
}

std::string toJsonLine(const Op& op) {
    return toJsonObject(op).dump();
}

Op opFromJsonLine(std::string_view line) {
    Json j = Json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_discarded()) throw InvalidArgumentError("history: a line is not JSON");
    return fromJsonObject(j);
}

std::string toJson(const History& history) {
    std::string out = "[\n";
    for (std::size_t i = 0; i < history.size(); ++i)
        out += toJsonLine(history[i]) + (i + 1 < history.size() ? ",\n" : "\n");
    return out + "]\n";
}

std::string toEdn(const History& history) {
    std::ostringstream out;
    out << "[\n";
    for (const Op& op : history) {
        out << "{:type :" << toString(op.type) << ", :f :" << (op.f.empty() ? "nil" : op.f)
            << ", :process ";
        if (const char* name = processName(op.process))
            out << ':' << name;
        else
            out << op.process;
        out << ", :time " << op.timeNs << ", :value {";
        if (!op.token.empty()) out << ":token " << ednString(op.token) << ", ";
        out << ":fence " << (op.fence ? std::to_string(*op.fence) : "nil");
        if (op.round) out << ", :round " << op.round;
        if (op.process == kResource)
            out << ", :seq " << op.seq << ", :writer " << op.writer << ", :accepted "
                << (op.accepted ? "true" : "false");
        if (!op.phase.empty()) out << ", :phase :" << op.phase;
        if (!op.detail.empty()) out << ", :detail " << ednString(op.detail);
        out << "}}\n";
    }
    out << "]\n";
    return out.str();
}

History historyFromJson(std::string_view text) {
    Json j = Json::parse(text.begin(), text.end(), nullptr, false);
    History history;
    if (!j.is_discarded()) {
        if (!j.is_array())
            throw InvalidArgumentError("history: expected a JSON array of operations");
        for (const Json& op : j) history.push_back(fromJsonObject(op));
        return history;
    }
    // Not one document: JSON lines, as the workers write them.
    std::size_t start = 0, lineNumber = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
            try {
                history.push_back(opFromJsonLine(line));
            } catch (const InvalidArgumentError& e) {
                throw InvalidArgumentError(std::string(e.what()) + " (line " +
                                           std::to_string(lineNumber) + ")");
            }
        }
        start = end + 1;
    }
    return history;
}

void sortByTime(History& history) {
    std::stable_sort(history.begin(), history.end(),
                     [](const Op& a, const Op& b) { return a.timeNs < b.timeNs; });
}

}  // namespace lockscope::torture
