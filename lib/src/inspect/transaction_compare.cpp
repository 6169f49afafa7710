#include "transaction_compare.h"

#include <algorithm>
#include <string>
#include <vector>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

// EXEC answers nil when the WATCHed key changed: nothing ran. Look again a few times (the
// key may be back to the value seen); a key that keeps changing is not ours to act on.
constexpr int kAttempts = 8;

bool holdsTheHolderSeen(Connection& c, std::string_view key, std::string_view type,
                        const Holder& seen) {
    if (seen.fields.empty()) {
        if (type != "string") return false;
        Reply v = c.command({"GET", key});
        return v.type() == ReplyType::String && v.text() == seen.token;
    }
    if (type != "hash") return false;
    Reply all = c.command({"HGETALL", key});
    if (all.size() != seen.fields.size() * 2) return false;
    std::vector<HashField> now;
    for (std::size_t i = 0; i + 1 < all.size(); i += 2)
        now.push_back({std::string(all[i].text()), std::string(all[i + 1].text())});
    auto byField = [](const HashField& a, const HashField& b) { return a.field < b.field; };
    std::vector<HashField> expected = seen.fields;
    std::sort(now.begin(), now.end(), byField);
    std::sort(expected.begin(), expected.end(), byField);
    return now == expected;
}

// -2 / -3 when the TTL rules forbid the expire, 0 when it may go ahead.
std::int64_t ttlRule(Connection& c, std::string_view key, std::string_view op,
                     std::chrono::milliseconds ttl) {
    if (op == "del") return 0;
    const std::int64_t pttl = c.command({"PTTL", key}).integer();
    if (op == "pexpire" && pttl >= 0) return -2;
    if (pttl >= 0 && ttl.count() <= pttl) return -3;
    return 0;
}

}  // namespace

std::int64_t compareAndActByTransaction(Connection& c, std::string_view key, std::string_view op,
                                        std::chrono::milliseconds ttl, const Holder& seen) {
    const std::string ms = std::to_string(ttl.count());
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        c.command({"WATCH", key});
        Reply type = c.command({"TYPE", key});
        std::int64_t refusal = 0;  // the script's 0 too: changed hands, nothing to do
        bool mayAct = false;
        if (type.text() == "none")
            refusal = -1;
        else if (holdsTheHolderSeen(c, key, type.text(), seen))
            mayAct = (refusal = ttlRule(c, key, op, ttl)) == 0;
        if (!mayAct) {
            c.command({"UNWATCH"});
            return refusal;
        }
        c.command({"MULTI"});
        try {
            if (op == "del")
                c.command({"DEL", key});
            else
                c.command({"PEXPIRE", key, ms});
        } catch (const ReplyError&) {
            c.command({"DISCARD"});
            throw;
        }
        Reply done = c.command({"EXEC"});
        if (done.type() == ReplyType::Array && done.size() == 1 && done[0].isInteger())
            return done[0].integer();
    }
    return 0;
}

}  // namespace lockscope::inspect
