#include "job_queue_evidence.h"

#include <charconv>

#include "lockscope/duration_text.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect::liveness {
namespace {

std::optional<std::int64_t> integer(std::string_view s) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

// A field the library writes as a decimal number: absent, a number, or malformed.
void readNumber(ReplyView v, const char* field, std::optional<std::int64_t>& out,
                std::string& malformed) {
    if (v.isNil()) return;
    out = integer(v.text());
    if (!out && malformed.empty())
        malformed = std::string(field) + " is " + quoted(v.text(), 40) + ", not a number";
}

}  // namespace

std::optional<JobLockKey> parseJobLockKey(std::string_view key) {
    if (!key.ends_with(":lock")) return std::nullopt;
    std::string_view rest = key.substr(0, key.size() - 5);
    auto idColon = rest.rfind(':');
    if (idColon == std::string_view::npos || idColon == 0 || idColon + 1 == rest.size())
        return std::nullopt;
    auto queueColon = rest.rfind(':', idColon - 1);
    if (queueColon == std::string_view::npos || queueColon == 0 || queueColon + 1 == idColon)
        return std::nullopt;
    return JobLockKey{std::string(rest.substr(0, queueColon)),
                      std::string(rest.substr(queueColon + 1, idColon - queueColon - 1)),
                      std::string(rest.substr(idColon + 1))};
}

std::string base64(std::string_view bytes) {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        unsigned n = (static_cast<unsigned char>(bytes[i]) << 16) |
                     (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                     static_cast<unsigned char>(bytes[i + 2]);
        for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(n >> s) & 63];
    }
    if (std::size_t left = bytes.size() - i; left > 0) {
        unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
        if (left == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += left == 2 ? kAlphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string workerConnectionName(const JobLockKey& key) {
    return key.prefix + ":" + base64(key.queue);
}

std::vector<const ClientEntry*> workersOf(const JobLockKey& key, const ClientListSnapshot& list) {
    const std::string name = workerConnectionName(key);
    std::vector<const ClientEntry*> out;
    for (const auto& c : list.named)
        if (c.name.starts_with(name)) out.push_back(&c);
    return out;
}

JobFacts readJob(Connection& c, const JobLockKey& key) {
    JobFacts f;
    try {
        auto replies = c.pipeline(
            {{"HMGET", key.jobKey(), "name", "processedOn", "finishedOn", "attemptsMade", "atm"},
             {"EXISTS", key.jobKey()},
             {"LPOS", key.activeKey(), key.jobId}});
        for (const auto& r : replies)
            if (r.isError()) {
                f.whyNot = "could not read the job (" + std::string(r.text()) + ")";
                return f;
            }
        const Reply& h = replies[0];
        f.hashExists = replies[1].integer() == 1;
        if (!h[0].isNil()) f.name = std::string(h[0].text());
        readNumber(h[1], "processedOn", f.processedOnMs, f.malformed);
        readNumber(h[2], "finishedOn", f.finishedOnMs, f.malformed);
        readNumber(h[3].isNil() ? h[4] : h[3], "attemptsMade", f.attemptsMade, f.malformed);
        f.active = replies[2].view().isInteger();
        f.read = true;
    } catch (const Error& e) {
        f.whyNot = std::string("could not read the job (") + e.what() + ")";
    }
    return f;
}

std::vector<std::string> describeJob(const JobLockKey& key, const JobFacts& job) {
    std::vector<std::string> lines;
    const std::string jobKey = quoted(key.jobKey(), 80);
    if (!job.read) return {job.whyNot};
    if (!job.hashExists) {
        lines.push_back("its job hash " + jobKey + " does not exist");
        return lines;
    }
    std::string line = "job " + quoted(key.jobId, 40);
    if (!job.name.empty()) line += " (" + quoted(job.name, 40) + ")";
    if (job.processedOnMs) {
        auto started = WallClock::time_point(std::chrono::milliseconds(*job.processedOnMs));
        line += ", started " + formatIsoInstant(started);
    }
    if (job.attemptsMade) line += ", " + std::to_string(*job.attemptsMade) + " attempt(s) made";
    if (job.finishedOnMs) line += ", finished";
    line += job.active ? ", in the active list" : ", not in the active list";
    lines.push_back(line);
    if (!job.malformed.empty()) lines.push_back("its job hash is malformed: " + job.malformed);
    return lines;
}

}  // namespace lockscope::inspect::liveness
