#include "sidekiq_evidence.h"

#include <nlohmann/json.hpp>

#include "lockscope/errors.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect::liveness {
namespace {

constexpr std::size_t kMaxQueues = 100;

std::optional<double> decimal(std::string_view s) {
    if (s.empty() || s.size() > 40) return std::nullopt;
    try {
        std::size_t used = 0;
        double d = std::stod(std::string(s), &used);
        if (used != s.size()) return std::nullopt;
        return d;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void readInfo(std::string_view info, SidekiqProcess& p) {
    auto j = nlohmann::json::parse(info, nullptr, false);
    if (!j.is_object()) return;
    if (auto h = j.find("hostname"); h != j.end() && h->is_string()) p.host = h->get<std::string>();
    if (auto pid = j.find("pid"); pid != j.end() && pid->is_number_integer())
        p.pid = pid->get<std::int64_t>();
}

// The jid written in a job payload ("jid":"..."), found without parsing the whole payload:
// queues hold thousands of them.
std::optional<std::string> jidInPayload(std::string_view payload) {
    constexpr std::string_view kJid = R"("jid":")";
    auto at = payload.find(kJid);
    if (at == std::string_view::npos) return std::nullopt;
    auto start = at + kJid.size();
    auto end = payload.find('"', start);
    if (end == std::string_view::npos || end == start) return std::nullopt;
    return std::string(payload.substr(start, end - start));
}

// The reply of command i, or a throw naming why it could not be had (a node unreachable, a
// MOVED, a denied read): what was not read must not count as "not there".
const Reply& replyOf(const KeyReplies& r, std::size_t i) {
    if (r.unread[i]) throw ReplyError(r.firstProblem());
    if (r.replies[i].isError()) {
        std::string text(r.replies[i].text());
        if (text.starts_with("NOPERM")) throw PermissionError(text);
        throw ReplyError(text);
    }
    return r.replies[i];
}

}  // namespace

std::string SidekiqProcess::where() const {
    if (host.empty() || pid <= 0) return identity;
    return host + ":" + std::to_string(pid);
}

std::optional<std::string> jidOfWork(std::string_view workJson, std::string* queue,
                                     std::optional<std::int64_t>* runAt) {
    auto j = nlohmann::json::parse(workJson, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    auto payload = j.find("payload");
    if (payload == j.end()) return std::nullopt;
    nlohmann::json job = payload->is_string()
                             ? nlohmann::json::parse(payload->get<std::string>(), nullptr, false)
                             : *payload;
    if (!job.is_object()) return std::nullopt;
    auto jid = job.find("jid");
    if (jid == job.end() || !jid->is_string() || jid->get<std::string>().empty())
        return std::nullopt;
    if (auto q = j.find("queue"); queue && q != j.end() && q->is_string())
        *queue = q->get<std::string>();
    if (auto r = j.find("run_at"); runAt && r != j.end() && r->is_number_integer())
        *runAt = r->get<std::int64_t>();
    return jid->get<std::string>();
}

SidekiqSnapshot readSidekiqProcesses(KeyReads& reads, std::size_t maxProcesses) {
    SidekiqSnapshot s;
    s.at = WallClock::now();
    s.steadyAt = SteadyClock::now();
    try {
        const KeyReplies set = reads.read({{"SMEMBERS", "processes"}});
        const Reply& members = replyOf(set, 0);
        std::vector<std::vector<std::string>> commands;
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (s.processes.size() >= maxProcesses) {
                s.truncated = true;
                break;
            }
            std::string id(members[i].text());
            s.processes.push_back({id, {}, 0, false, std::nullopt});
            commands.push_back({"EXISTS", id});
            commands.push_back({"HMGET", id, "info", "beat"});
            commands.push_back({"HGETALL", id + ":workers"});
            commands.push_back({"HGETALL", id + ":work"});
        }
        const KeyReplies replies = reads.read(commands);
        for (std::size_t p = 0; p < s.processes.size(); ++p) {
            auto& proc = s.processes[p];
            const Reply& exists = replyOf(replies, 4 * p);
            const Reply& hash = replyOf(replies, 4 * p + 1);
            // The hash expires 60 s after the last heartbeat: its existence is the beat.
            proc.alive = exists.integer() == 1;
            if (!hash[0].isNil()) readInfo(hash[0].text(), proc);
            if (!hash[1].isNil()) proc.beat = decimal(hash[1].text());
            for (std::size_t w = 2; w <= 3; ++w) {
                // A work hash that could not be read would hide a running job: no snapshot.
                const Reply& work = replyOf(replies, 4 * p + w);
                for (std::size_t i = 1; work.view().isArray() && i < work.size(); i += 2) {
                    SidekiqRun run{p, {}, std::nullopt};
                    if (auto jid = jidOfWork(work[i].text(), &run.queue, &run.runAt))
                        s.running[*jid].push_back(std::move(run));
                }
            }
        }
        s.read = true;
    } catch (const PermissionError& e) {
        s.whyNot = std::string("Sidekiq's process list is denied to this user (") + e.what() + ")";
    } catch (const Error& e) {
        s.whyNot = std::string("could not read Sidekiq's processes (") + e.what() + ")";
    }
    return s;
}

PlaceSearch findJobs(KeyReads& reads, const std::set<std::string>& jids, std::size_t maxPerPlace) {
    PlaceSearch out;
    const std::string last = std::to_string(maxPerPlace == 0 ? 0 : maxPerPlace - 1);
    try {
        const KeyReplies set = reads.read({{"SMEMBERS", "queues"}});
        const Reply& queues = replyOf(set, 0);
        std::vector<std::vector<std::string>> commands;
        std::vector<std::string> names;
        for (std::size_t i = 0; i < queues.size() && i < kMaxQueues; ++i) {
            names.emplace_back(queues[i].text());
            commands.push_back({"LRANGE", "queue:" + names.back(), "0", last});
            commands.push_back({"LLEN", "queue:" + names.back()});
        }
        if (queues.size() > kMaxQueues) out.complete = false;
        for (const char* set : {"schedule", "retry", "dead"}) {
            commands.push_back({"ZRANGE", set, "0", last, "WITHSCORES"});
            commands.push_back({"ZCARD", set});
        }
        const KeyReplies replies = reads.read(commands);
        for (std::size_t i = 0; i < commands.size(); i += 2) {
            const Reply& elements = replyOf(replies, i);
            if (replyOf(replies, i + 1).integer() > static_cast<std::int64_t>(maxPerPlace))
                out.complete = false;
            const bool queue = i / 2 < names.size();
            const std::size_t step = queue ? 1 : 2;
            for (std::size_t e = 0; e < elements.size(); e += step) {
                auto jid = jidInPayload(elements[e].text());
                if (!jid || !jids.contains(*jid)) continue;
                PlacedJob job;
                if (queue) {
                    job.queue = names[i / 2];
                } else {
                    job.place = static_cast<JobPlace>(1 + (i / 2 - names.size()));
                    job.at = decimal(elements[e + 1].text());
                }
                out.found.emplace(*jid, std::move(job));
            }
        }
        if (!out.complete)
            out.note = "only the first " + std::to_string(maxPerPlace) +
                       " jobs of each queue and set (and " + std::to_string(kMaxQueues) +
                       " queues) were looked at";
    } catch (const Error& e) {
        out.complete = false;
        out.note = std::string("could not read Sidekiq's queues and sets (") + e.what() + ")";
    }
    return out;
}

std::string describePlace(const PlacedJob& job) {
    auto when = [&] {
        // A hostile score must not overflow the conversion: only dates before 5138 are shown.
        if (!job.at || !(*job.at > 0 && *job.at < 1e11)) return std::string();
        auto t = WallClock::time_point(
            std::chrono::milliseconds(static_cast<std::int64_t>(*job.at * 1000.0)));
        return " " + formatIsoInstant(t);
    };
    switch (job.place) {
        case JobPlace::Queue:
            return "waiting in queue " + quoted(job.queue, 60);
        case JobPlace::Schedule:
            return "scheduled to run at" + when();
        case JobPlace::Retry:
            return "in the retry set, next try at" + when();
        case JobPlace::Dead:
            return "in the dead set since" + when() + ": it will not run again";
    }
    return {};
}

}  // namespace lockscope::inspect::liveness
