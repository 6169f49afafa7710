#include "own_lock_judge.h"

#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect::liveness {
namespace {

// A renewal moves the lease end by a good part of the TTL; reading PTTL twice moves it by
// the round trip at most. Anything later than this counts as renewed.
constexpr auto kRenewalSlack = std::chrono::milliseconds(250);
// Locks whose holder's connection is missing, remembered at most (a forgotten one starts its
// confirmation again: later, never wrong).
constexpr std::size_t kMaxAbsences = 100'000;

std::optional<SteadyClock::time_point> leaseEndOf(const LockRecord& r) {
    if (r.pttlMs < 0) return std::nullopt;
    return r.observedAt + std::chrono::milliseconds(r.pttlMs);
}

std::vector<const ClientEntry*> named(const ClientListSnapshot& list, const std::string& name) {
    std::vector<const ClientEntry*> out;
    for (const auto& c : list.named)
        if (c.name == name) out.push_back(&c);
    return out;
}

std::string describeConnections(const std::vector<const ClientEntry*>& found) {
    std::string out;
    for (std::size_t i = 0; i < found.size() && i < 3; ++i)
        out += (i ? ", " : "") + found[i]->addr + " idle " + std::to_string(found[i]->idleSeconds) +
               " s";
    if (found.size() > 3) out += ", …";
    return out;
}

}  // namespace

std::size_t OwnLockJudge::prefetch(std::span<const LockRecord* const> batch, std::size_t budget) {
    prefetched_.clear();
    std::vector<std::string> keys;
    for (const LockRecord* r : batch) {
        if (keys.size() >= budget) break;
        if (r->kind != LockKind::Guide) continue;
        if (auto key = holderKeyOf(*r); !key.empty()) keys.push_back(std::move(key));
    }
    auto holders = readOwnHolders(connection_, keys);
    for (std::size_t i = 0; i < keys.size(); ++i)
        prefetched_.insert_or_assign(keys[i], std::move(holders[i]));
    return keys.size();
}

std::vector<Evidence> OwnLockJudge::judge(const LockRecord& r, bool& fromRecordAlone) {
    fromRecordAlone = false;
    const std::string holderKey = holderKeyOf(r);
    if (holderKey.empty()) {
        fromRecordAlone = true;
        return {evidenceNow("the key has no {hash tag}: no holder record to read")};
    }
    auto found = prefetched_.find(holderKey);
    if (found == prefetched_.end())
        return {evidenceNow("its holder record was not looked up: over the budget of " +
                            std::to_string(options_.maxLookupsPerPass) + " look-ups per pass")};
    const OwnHolder& holder = found->second;
    if (!holder.read) return {evidenceNow(holder.whyNot)};
    const std::string record = "its holder record " + quoted(holderKey, 80);
    fromRecordAlone = !holder.exists;
    if (!holder.exists)
        return {evidenceNow("no holder record " + quoted(holderKey, 80) +
                            ": taken with LockOptions::holder off, by an older LockScope or by "
                            "another client")};
    if (!holder.malformed.empty())
        return {evidenceNow(record + " is malformed: " + holder.malformed +
                            "; LockScope does not judge by it")};
    if (holder.token != r.token)
        return {evidenceNow(record + " names another token (" + quoted(holder.token, 40) +
                            "): it is not this holder's, so it tells nothing")};
    std::vector<Evidence> out{evidenceNow(describeOwnHolder(holder))};
    auto more = judgeConnection(r, holder);
    out.insert(out.end(), more.begin(), more.end());
    return out;
}

std::vector<Evidence> OwnLockJudge::judgeConnection(const LockRecord& r, const OwnHolder& h) {
    if (h.connection.empty())
        return {
            evidenceNow("its holder did not name its connection (CLIENT refused to it, or naming "
                        "off), so its absence cannot be seen")};
    const ClientListSnapshot& snapshot = clients_.current();
    if (!snapshot.read)
        return {evidenceNow(snapshot.whyNot +
                            ": LockScope cannot see whether the holder's connection " +
                            quoted(h.connection, 80) + " is still there")};
    auto found = named(snapshot, h.connection);
    if (!found.empty()) {
        absences_.erase(r.key);
        lastPresent_[h.connection] = snapshot.at;
        Evidence alive = evidenceNow("its connection " + quoted(h.connection, 80) +
                                         " is connected (" + describeConnections(found) + ")",
                                     Verdict::Alive);
        if (h.sinceMs) alive.since = WallClock::time_point(std::chrono::milliseconds(*h.sinceMs));
        return {alive};
    }
    if (h.connection != h.ownConnectionName())
        return {
            evidenceNow("no connection named " + quoted(h.connection, 80) +
                        "; its user chose that name, so LockScope does not call the lock an orphan "
                        "from its absence")};
    return judgeAbsence(r, h.connection, snapshot);
}

std::vector<Evidence> OwnLockJudge::judgeAbsence(const LockRecord& r, const std::string& name,
                                                 const ClientListSnapshot& first) {
    if (absences_.size() >= kMaxAbsences && !absences_.contains(r.key)) absences_.clear();
    Absence& a = absences_[r.key];
    if (a.token != r.token) a = Absence{r.token, first.steadyAt, first.at, leaseEndOf(r), {}};
    const ClientListSnapshot* snapshot = &first;
    // An absence waiting for its second read gets it as soon as it is due, not a read later.
    const auto due = a.since + options_.confirmAbsence;
    if (first.steadyAt < due && SteadyClock::now() >= due) {
        snapshot = &clients_.refresh();
        if (!snapshot->read) return {evidenceNow(snapshot->whyNot)};
        if (!named(*snapshot, name).empty()) {
            absences_.erase(r.key);
            return {evidenceNow("its connection " + quoted(name, 80) + " is back", Verdict::Alive)};
        }
    }
    a.lastSnapshot = snapshot->steadyAt;
    const std::string absent = "no connection named " + quoted(name, 80) + " (the holder's own)";
    auto leaseEnd = leaseEndOf(r);
    if (leaseEnd && a.leaseEnd && *leaseEnd > *a.leaseEnd + kRenewalSlack) {
        a = Absence{r.token, snapshot->steadyAt, snapshot->at, leaseEnd, snapshot->steadyAt};
        return {evidenceNow(absent + ", yet the lease was renewed since: its holder renews from "
                                     "somewhere, so its absence proves nothing")};
    }
    if (snapshot->steadyAt < due)
        return {
            evidenceNow(absent + " since " + formatIsoInstant(a.sinceWall) +
                        "; a second read confirms it (a reconnecting holder is briefly absent)")};
    Evidence gone =
        evidenceNow(absent + " in CLIENT LIST read at " + formatIsoInstant(a.sinceWall) +
                        " and at " + formatIsoInstant(snapshot->at) +
                        ", and the lease not renewed in between: the process that holds "
                        "it has disconnected",
                    Verdict::Gone);
    gone.seenAt = a.sinceWall;
    if (auto seen = lastPresent_.find(name); seen != lastPresent_.end()) gone.since = seen->second;
    return {gone};
}

std::optional<SteadyClock::time_point> OwnLockJudge::confirmableAt() const {
    std::optional<SteadyClock::time_point> earliest;
    for (const auto& [key, a] : absences_) {
        auto at = a.since + options_.confirmAbsence;
        if (a.lastSnapshot >= at) continue;
        if (!earliest || at < *earliest) earliest = at;
    }
    return earliest;
}

}  // namespace lockscope::inspect::liveness
