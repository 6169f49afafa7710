// lockscope-cli release KEY --token T: delete the lock only if it is still held by T, the way
// its library expects where it has a way of its own (Redisson, sidekiq-unique-jobs, Spring:
// their waiters are woken), else by compare-and-delete.
#include <optional>

#include "cli_command.h"
#include "connection_flags.h"
#include "lock_action.h"
#include "lockscope/inspect/library_release.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::cli {
namespace {

constexpr auto kLastKind = inspect::LockKind::SymfonyLock;

std::optional<inspect::LockKind> kindFromFlag(const Arguments& args) {
    auto text = args.value("--kind");
    if (!text) return std::nullopt;
    for (int k = 0; k <= static_cast<int>(kLastKind); ++k) {
        auto kind = static_cast<inspect::LockKind>(k);
        if (*text == inspect::toString(kind)) return kind;
    }
    throw UsageError("--kind: unknown kind \"" + *text +
                     "\" (the kind column of list, e.g. redisson, spring-integration)");
}

bool comparesAHash(inspect::LockKind kind) {
    return kind == inspect::LockKind::RedissonLock ||
           kind == inspect::LockKind::RedissonReadWriteLock ||
           kind == inspect::LockKind::SidekiqUniqueJobs;
}

// The lock as its library sees it: the kind from --kind, else from reading the key now; the
// holder compared is always the one the operator saw, never the one just read.
std::optional<inspect::LockRecord> libraryLock(Connection& c, const InspectorFlags& flags,
                                               const std::string& key,
                                               std::optional<inspect::LockKind> kind,
                                               const inspect::Holder& seen) {
    inspect::LockRecord lock;
    if (kind) {
        lock.key = key;
        lock.kind = *kind;
        lock.type = seen.fields.empty() ? inspect::ValueType::String : inspect::ValueType::Hash;
    } else {
        inspect::ScanOptions options;
        options.layout = flags.scan.layout;
        inspect::Scanner scanner(c, options);
        auto read = scanner.readKeys({key});
        if (read.empty()) return std::nullopt;
        lock = std::move(read.front());
    }
    if (!inspect::hasLibraryRelease(lock.kind)) return std::nullopt;
    if (comparesAHash(lock.kind) != !seen.fields.empty()) return std::nullopt;
    lock.token = seen.token;
    lock.fields = seen.fields;
    lock.truncated = false;
    return lock;
}

int runRelease(const Arguments& args) {
    std::string key = actionKey(args, "release");
    inspect::Holder seen = holderFromFlags(args);
    auto kind = kindFromFlag(args);
    if (kind && inspect::hasLibraryRelease(*kind) && comparesAHash(*kind) == seen.fields.empty())
        throw UsageError(std::string("--kind ") + inspect::toString(*kind) + " compares " +
                         (comparesAHash(*kind) ? "the hash's --fields" : "a --token"));
    InspectorFlags flags = parseInspectorFlags(args);
    return runConnectedAction(
        flags, "release", key,
        [&](Connection& c, inspect::AuditLog& audit, inspect::ClusterRouter& router) {
            if (auto lock = libraryLock(c, flags, key, kind, seen)) {
                // On a cluster a library's keys may sit in several slots (a sidekiq digest):
                // each goes to its own node, never one script across slots.
                inspect::LibraryRelease::KeyRoute route;
                if (router.isCluster())
                    route = [&router](std::string_view k,
                                      const inspect::LibraryRelease::ConnectionAct& act,
                                      const inspect::LibraryRelease::ConnectionAct& beforeAsk) {
                        router.onKey(k, act, beforeAsk);
                    };
                return inspect::LibraryRelease(c, &audit, route).release(*lock);
            }
            return inspect::SafeActions(c, &audit).release(key, seen);
        });
}

Registration release(
    {"release", "release KEY --token T",
     "Delete the lock only if it still holds token T (a Redisson hash: --fields JSON); exit 4 "
     "and nothing deleted if it changed hands. Redisson, sidekiq-unique-jobs and Spring locks "
     "are released as their library does, waking its waiters.",
     actionOptionSpecs({{"--kind", "KIND",
                         "the lock's kind as list shows it, when its key alone does not say "
                         "(spring-integration: a registry's lock)",
                         "Action"}}),
     true, "KEY", runRelease});

}  // namespace
}  // namespace lockscope::cli
