#include "lockscope/inspect/record_json.h"

#include <nlohmann/json.hpp>

#include "json_text.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/liveness/holder_verdict.h"

namespace lockscope::inspect {
namespace {

nlohmann::ordered_json livenessJson(const HolderVerdict& v) {
    nlohmann::ordered_json j;
    j["verdict"] = toString(v.verdict);
    j["since"] = v.since ? nlohmann::ordered_json(formatIsoInstant(*v.since))
                         : nlohmann::ordered_json(nullptr);
    auto evidence = nlohmann::ordered_json::array();
    for (const auto& e : v.evidence) {
        nlohmann::ordered_json line;
        line["text"] = jsonSafe(e.text);
        line["seen_at"] = formatIsoInstant(e.seenAt);
        line["points_to"] = toString(e.pointsTo);
        if (e.warning) line["warning"] = true;
        evidence.push_back(std::move(line));
    }
    j["evidence"] = std::move(evidence);
    return j;
}

}  // namespace

std::string toJsonLine(const LockRecord& r, SteadyClock::time_point now) {
    nlohmann::ordered_json j;
    bool escaped = false;
    j["instance"] = jsonSafe(r.instanceName());
    j["key"] = jsonSafe(r.key, &escaped);
    if (escaped) j["key_escaped"] = true;
    if (r.slot >= 0) j["slot"] = r.slot;
    j["resource"] = jsonSafe(r.resource());
    j["type"] = toString(r.type);
    j["kind"] = toString(r.kind);
    if (r.type == ValueType::Hash || (r.type == ValueType::ZSet && !r.fields.empty())) {
        // Field names and values are escaped as keys are, and marked the same way (a sorted
        // set's holders: member -> score).
        nlohmann::ordered_json fields = nlohmann::ordered_json::object();
        bool fieldsEscaped = false;
        for (const auto& f : r.fields) {
            bool nameEscaped = false, valueEscaped = false;
            fields[jsonSafe(f.field, &nameEscaped)] = jsonSafe(f.value, &valueEscaped);
            fieldsEscaped = fieldsEscaped || nameEscaped || valueEscaped;
        }
        j["token"] = fields;
        if (fieldsEscaped) j["token_escaped"] = true;
    } else if (r.type == ValueType::String) {
        j["token"] = jsonSafe(r.token, &escaped);
        if (escaped) j["token_escaped"] = true;
    } else {
        j["token"] = nullptr;
    }
    j["pttl_ms"] = r.remainingAt(now);
    j["fence"] = r.fence ? nlohmann::ordered_json(*r.fence) : nlohmann::ordered_json(nullptr);
    j["findings"] = ruleNames(r.findings);
    j["value_bytes"] = r.valueBytes;
    j["truncated"] = r.truncated;
    j["handoffs"] = r.handoffs;
    j["renewals"] = r.renewals;
    if (auto facts = decodeHolder(r); !facts.empty()) j["holder"] = jsonSafe(describeHolder(facts));
    if (r.liveness) j["liveness"] = livenessJson(*r.liveness);
    return j.dump();
}

}  // namespace lockscope::inspect
