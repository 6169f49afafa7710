#include "lockscope/compare_and_act.h"

#include <string>

#include "lockscope/errors.h"
#include "lockscope/script.h"

namespace lockscope {
namespace {

const Script& deleteIfEqual() {
    static const Script s(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) "
        "else return 0 end");
    return s;
}

const Script& expireIfEqual() {
    static const Script s(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], "
        "ARGV[2]) else return 0 end");
    return s;
}

// EXEC answers nil when a WATCHed key changed after WATCH: nothing ran. The key may have
// been put back to the expected value since (an ABA), so look again, a few times.
constexpr int kTransactionAttempts = 8;

// WATCH, GET, compare, then MULTI + action + EXEC. `action` is the command to run.
bool runTransaction(Connection& c, std::string_view key, std::string_view expected,
                    std::initializer_list<std::string_view> action) {
    for (int attempt = 0; attempt < kTransactionAttempts; ++attempt) {
        c.command({"WATCH", key});
        Reply current = c.command({"GET", key});
        if (current.type() != ReplyType::String || current.text() != expected) {
            c.command({"UNWATCH"});
            return false;
        }
        c.command({"MULTI"});
        try {
            c.command(action);
        } catch (const ReplyError&) {
            c.command({"DISCARD"});
            throw;
        }
        Reply done = c.command({"EXEC"});
        if (done.type() == ReplyType::Array) {
            ReplyView result = done[0];
            return result.isInteger() && result.integer() == 1;
        }
    }
    return false;  // the key kept changing under us: it is not ours to act on
}

template <typename ScriptRun, typename TransactionRun>
CompareAndActResult choosePath(CompareAndActPath prefer, ScriptRun script,
                               TransactionRun transaction) {
    if (prefer == CompareAndActPath::Script) {
        try {
            return {script(), CompareAndActPath::Script};
        } catch (const ReplyError& e) {
            if (!isScriptingUnavailable(e)) throw;
        }
    }
    return {transaction(), CompareAndActPath::Transaction};
}

}  // namespace

const char* toString(CompareAndActPath path) {
    return path == CompareAndActPath::Script ? "script" : "WATCH/MULTI/EXEC";
}

bool isScriptingUnavailable(const ReplyError& error) {
    std::string_view what = error.what();
    if (!what.starts_with("EVAL")) return false;  // "EVALSHA on redis://...: ..."
    if (error.code() == ServerErrorCode::UnknownCommand) return true;
    // NOPERM for the command ("no permissions to run the 'evalsha' command"), not for a key.
    return error.code() == ServerErrorCode::NoPerm &&
           what.find("to run the") != std::string_view::npos;
}

CompareAndActResult compareAndDelete(Connection& c, std::string_view key, std::string_view expected,
                                     CompareAndActPath prefer) {
    return choosePath(
        prefer, [&] { return c.eval(deleteIfEqual(), {key}, {expected}).integer() == 1; },
        [&] {
            return runTransaction(c, key, expected, {"DEL", key});
        });
}

CompareAndActResult compareAndExpire(Connection& c, std::string_view key, std::string_view expected,
                                     std::chrono::milliseconds ttl, CompareAndActPath prefer) {
    std::string ms = std::to_string(ttl.count());
    return choosePath(
        prefer,
        [&] {
            return c.eval(expireIfEqual(), {key}, {expected, ms}).integer() == 1;
        },
        [&] {
            return runTransaction(c, key, expected, {"PEXPIRE", key, ms});
        });
}

}  // namespace lockscope
