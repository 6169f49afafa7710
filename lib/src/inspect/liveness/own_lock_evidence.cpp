#include "own_lock_evidence.h"

#include <charconv>

#include "lockscope/errors.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect::liveness {
namespace {

constexpr std::size_t kMaxFieldBytes = 256;  // host and purpose are at most this long

std::optional<std::int64_t> positive(std::string_view s) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || n <= 0) return std::nullopt;
    return n;
}

// Printable ASCII without spaces: what CLIENT SETNAME accepts, so what a name can carry.
bool nameSafe(std::string_view s) {
    if (s.empty() || s.size() > kMaxFieldBytes) return false;
    for (char c : s)
        if (c < '!' || c > '~') return false;
    return true;
}

std::string text(ReplyView v) {
    return v.isString() ? std::string(v.text()) : std::string();
}

void checkFields(OwnHolder& h, ReplyView pid, ReplyView since) {
    if (h.token.empty())
        h.malformed = "it has no token";
    else if (!nameSafe(h.host))
        h.malformed = "its host is " + quoted(h.host, 40) + ", not a host name";
    else if (!(h.pid = positive(text(pid))))
        h.malformed = "its pid is " + quoted(text(pid), 40) + ", not a process id";
    if (!since.isNil()) h.sinceMs = positive(text(since));
    if (h.purpose.size() > kMaxFieldBytes) h.purpose.resize(kMaxFieldBytes);
}

}  // namespace

std::string holderKeyOf(const LockRecord& r) {
    const std::string_view key = r.key;
    auto open = key.find('{');
    if (open == std::string_view::npos) return {};
    auto close = key.find('}', open + 1);
    if (close == std::string_view::npos || close == open + 1) return {};
    return std::string(kHolderPrefix) + std::string(key.substr(open, close - open + 1));
}

std::string OwnHolder::ownConnectionName() const {
    return "lockscope:" + host + ":" + (pid ? std::to_string(*pid) : std::string("?"));
}

namespace {

OwnHolder decode(const Reply& fields, const Reply& exists, const std::string& holderKey) {
    OwnHolder h;
    for (const Reply* r : {&fields, &exists})
        if (r->isError()) {
            h.whyNot = "could not read its holder record " + quoted(holderKey, 80) + " (" +
                       std::string(r->text()) + ")";
            return h;
        }
    h.read = true;
    h.exists = exists.view().isInteger() && exists.integer() == 1;
    if (!h.exists || fields.size() != 7) return h;
    h.token = text(fields[0]);
    h.host = text(fields[1]);
    h.thread = text(fields[3]);
    h.purpose = text(fields[5]);
    h.connection = text(fields[6]);
    checkFields(h, fields[2], fields[4]);
    return h;
}

void readChunk(Connection& c, const std::vector<std::string>& keys, std::size_t from,
               std::size_t to, std::vector<OwnHolder>& out) {
    std::vector<std::vector<std::string>> commands;
    for (std::size_t i = from; i < to; ++i) {
        commands.push_back(
            {"HMGET", keys[i], "token", "host", "pid", "thread", "since", "purpose", "connection"});
        commands.push_back({"EXISTS", keys[i]});
    }
    try {
        auto replies = c.pipeline(commands);
        for (std::size_t i = from; i < to; ++i)
            out.push_back(decode(replies[2 * (i - from)], replies[2 * (i - from) + 1], keys[i]));
    } catch (const Error& e) {
        for (std::size_t i = from; i < to; ++i) {
            OwnHolder h;
            h.whyNot =
                "could not read its holder record " + quoted(keys[i], 80) + " (" + e.what() + ")";
            out.push_back(std::move(h));
        }
    }
}

}  // namespace

std::vector<OwnHolder> readOwnHolders(Connection& c, const std::vector<std::string>& keys,
                                      std::size_t chunk) {
    std::vector<OwnHolder> out;
    out.reserve(keys.size());
    for (std::size_t from = 0; from < keys.size(); from += chunk)
        readChunk(c, keys, from, std::min(keys.size(), from + chunk), out);
    return out;
}

std::string describeOwnHolder(const OwnHolder& h) {
    std::string line =
        "held by pid " + std::to_string(h.pid.value_or(0)) + " on host " + quoted(h.host, 60);
    if (!h.thread.empty()) line += ", thread " + quoted(h.thread, 40);
    if (!h.purpose.empty()) line += ", for " + quoted(h.purpose, 80);
    if (h.sinceMs)
        line += ", since " + formatIsoInstant(std::chrono::system_clock::time_point(
                                 std::chrono::milliseconds(*h.sinceMs)));
    return line + " (its holder record)";
}

}  // namespace lockscope::inspect::liveness
