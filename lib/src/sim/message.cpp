#include "lockscope/sim/message.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace lockscope::sim {

namespace {

// The English templates. The ids are what a translation file names (ui/translations).
constexpr std::pair<std::string_view, std::string_view> kCatalog[] = {
    {"sim.gtd.atomic-release",
     "%1 releases with the guide's script: GET, compare and DEL run as one unit on the server, "
     "so nothing can happen in between."},
    {"sim.gtd.get-first",
     "%1 releases from the client: first GET, to see whether the lock is still its own."},
    {"sim.gtd.sees-own-token",
     "%1 sees its own token, so it will DEL. Its next command leaves %2 later (a GC pause, a "
     "slow network): two commands, and the lock is not protected between them."},
    {"sim.gtd.sends-del", "%1 sends DEL."},
    {"sim.counter.incr",
     "%1 adds 1 with INCR: read, add and write happen in one command on the server. No lock "
     "needed."},
    {"sim.counter.waits", "%1 waits for the lock."},
    {"sim.counter.takes-lock", "%1 takes the lock before its update."},
    {"sim.counter.reads", "%1 reads the counter (%2) and computes %3."},
    {"sim.counter.writes-back", "%1 writes back %2."},
    {"sim.counter.releases", "%1 releases the lock."},
    {"sim.counter.read-at-end", "The counter is read once everyone is done."},
    {"sim.race.acquire", "%1.acquire() runs the acquire script."},
    {"sim.race.extend", "%1.extend():"},
    {"sim.race.release", "%1.release():"},
    {"sim.race.holds", "r.get(%1.key) == %1.token?"},
    {"sim.failover.asks", "%1 asks the primary %2 for the lock."},
    {"sim.failover.takes-then-waits",
     "%1 takes the lock on the primary %2, then asks WAIT %3 %4 whether a replica has it."},
    {"sim.failover.takes-async",
     "%1 takes the lock on the primary %2; the reply comes before any replica has the key "
     "(replication is asynchronous)."},
    {"sim.failover.relies", "%1 now relies on the lock: a replica acknowledged it."},
    {"sim.failover.done-releases", "%1 is done and releases the lock on %2, the primary."},
    {"sim.failover.done-releases-moved",
     "%1 is done and releases the lock on %2, the primary now (it took the lock on %3)."},
    {"sim.failover.short-releases",
     "WAIT came back short, so %1 treats the lock as not acquired and gives it back on %2, "
     "the primary."},
    {"sim.failover.short-releases-moved",
     "WAIT came back short, so %1 treats the lock as not acquired and gives it back on %2, "
     "the primary now (it took the lock on %3)."},
    {"sim.seat.drops-hold", "%1 drops the hold on %2."},
    {"sim.seat.taken",
     "%1 wants seat %2 and asks %3 for a hold: the seat is taken, so %1 looks elsewhere."},
    {"sim.seat.holds", "%1 holds seat %2 on %3 for %4 and starts paying."},
    {"sim.seat.confirms", "%1 has paid and confirms the booking in PostgreSQL."},
    {"sim.redlock.write-delayed",
     "%1 sends its report write to the store. The network delays the packet %2 (a slow link, "
     "a retransmission): %1 checked its lock before sending, not when the write lands."},
    {"sim.redlock.starts",
     "%1 starts Redlock at %2: the same SET NX PX goes to all %3 nodes at once, each with a "
     "%4 timeout."},
    {"sim.redlock.counter-token",
     "Redlock gives no fencing token: each node would count its own INCR, and no majority "
     "agrees on one number. %1 takes one from a monotonic counter instead (here the store's "
     "sequence; a consensus service such as ZooKeeper or etcd does the same): token %2. Every "
     "later holder gets a higher one, so the store can reject a lower token that arrives "
     "after a higher one."},
    {"sim.redlock.version-trap",
     "The trap: %1 derives its token from the report row's version, read just before it "
     "writes, and writes version + 1 = %2 under WHERE fence < ?. A number read from the row "
     "is always above the last one written, so the check passes for any writer, stale or "
     "not: it fences nothing. A fencing token must be handed out in the order the lock "
     "changed hands, by the lock service, not taken from the resource it protects."},
    {"sim.redlock.writes", "%1 writes its report."},
    {"sim.report.scheduler-fires", "%1's scheduler fires the nightly report job."},
    {"sim.report.run-now", "The operator presses \"run now\" on %1."},
    {"sim.report.taken-skips", "The lock is taken, so %1 skips the job."},
    {"sim.report.sets-ttl", "Then %1 sets the TTL with a second command."},
    {"sim.report.done", "build_and_email_report() on %1 is done."},
    {"sim.report.plain-del", "%1 deletes the lock with a plain DEL."},
    {"sim.report.acquire-script",
     "%1's scheduler fires; lock.acquire() runs the guide's acquire script (SET NX PX, then "
     "INCR of the fence counter)."},
    {"sim.report.skips", "%1 skips the job."},
    {"sim.report.renews", "%1 built chunk %2 and renews its lock before writing it."},
    {"sim.report.extend-fails",
     "%1 built chunk %2; lock.extend() returns 0, so it raises \"lock lost, aborting\"."},
    {"sim.report.saves", "%1 calls save_report(db, final_path, fence=%2)."},
    {"sim.report.release-script",
     "finally: lock.release() on %1 (the guide's release script: DEL only if GET returns its "
     "token)."},
    {"sim.redlock.oks",
     "%1 has OK from %2: %3 of %4 (a majority is %5) in %6 since it started at %7."},
    {"sim.redlock.validity", "Validity = %1 − %2 − drift %3 = %4."},
    {"sim.redlock.holds-until", "%1 holds the lock until %2 by its own clock."},
    {"sim.redlock.no-validity", "No validity left: no lock, so %1 releases on every node."},
    {"sim.redlock.no-majority", "No majority: no lock, so %1 releases on every node."},
    {"sim.clock.jumps",
     "%1's clock jumps %2 forward (an NTP step, a VM resumed after suspension)."},
    {"sim.clock.key-shortened", "%1's key there had %2 left; by %3's clock it now has %4."},
    {"sim.clock.key-expires-now",
     "%1's key there had %2 left; by %3's clock it now has none: it expires now."},
    {"sim.operator.opens", "The operator opens LockScope's inspector, which reads the lock:"},
    {"sim.operator.key-gone", "PTTL -2: the key is gone, there is no lock to release."},
    {"sim.operator.has-ttl", "The lock has a TTL; the inspector leaves it alone."},
    {"sim.operator.no-ttl", "PTTL -1."},
    {"sim.operator.does-not-delete", "%1 is running the job now: the operator does not delete."},
    {"sim.operator.releases",
     "The operator clicks Release: the inspector deletes the key only if it still holds "
     "\"%1\". Comparing with \"%1\" proves nothing about ownership (every instance writes it: "
     "a lock another instance took a moment ago would match too). What makes this delete "
     "safe is what the operator checked: no TTL, and no instance running the job."},
    {"sim.operator.release-changed",
     "The operator clicks Release: the inspector deletes the key only if it still holds "
     "\"%1\"; it changed, so nothing was deleted. Comparing with \"%1\" proves nothing about "
     "ownership (every instance writes it: a lock another instance took a moment ago would "
     "match too). What makes this delete safe is what the operator checked: no TTL, and no "
     "instance running the job."},
    {"sim.operator.already-ran",
     "The schedulers' status says the report already ran tonight (%1): the operator does not "
     "press \"run now\"."},
    {"sim.operator.running-on",
     "The schedulers' status says the report is running on %1: the operator does not press "
     "\"run now\"."},
    {"sim.operator.will-run-now",
     "The report has not run tonight: the operator will press \"run now\" on %1 at %2."},
};

}  // namespace

std::string_view englishTemplate(std::string_view id) {
    auto it = std::find_if(std::begin(kCatalog), std::end(kCatalog),
                           [&](const auto& entry) { return entry.first == id; });
    return it == std::end(kCatalog) ? std::string_view() : it->second;
}

std::string fillTemplate(std::string_view text, const std::vector<std::string>& args) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (text[i] == '%' && next == '%') {
            out += '%';
            ++i;
        } else if (text[i] == '%' && next >= '1' && next <= '9' &&
                   static_cast<std::size_t>(next - '1') < args.size()) {
            out += args[static_cast<std::size_t>(next - '1')];
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string renderEnglish(const Message& message) {
    if (message.id.empty()) return message.args.empty() ? std::string() : message.args.front();
    return fillTemplate(englishTemplate(message.id), message.args);
}

std::string renderEnglish(const std::vector<Message>& messages) {
    std::string text;
    for (const Message& m : messages) {
        const std::string part = renderEnglish(m);
        if (part.empty()) continue;
        text += (text.empty() ? "" : " ") + part;
    }
    return text;
}

}  // namespace lockscope::sim
