#include "resource_ledger.h"

#include <sqlite3.h>

#include "lockscope/errors.h"

namespace lockscope::torture {
namespace {

// Finalizes a statement on every path.
struct Statement {
    sqlite3_stmt* stmt = nullptr;
    ~Statement() { sqlite3_finalize(stmt); }
};

}  // namespace

ResourceLedger::ResourceLedger(const std::string& path, bool checkFences)
    : checkFences_(checkFences), path_(path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) fail("cannot open");
    // A paused writer can hold the write lock for its whole pause: wait long enough.
    sqlite3_busy_timeout(db_, 30'000);
    exec("PRAGMA journal_mode=WAL");
    exec(
        "CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
        "writer INTEGER, round INTEGER, token TEXT, fence INTEGER, phase TEXT, "
        "accepted INTEGER, time_ns INTEGER)");
    exec(
        "CREATE TABLE IF NOT EXISTS newest (id INTEGER PRIMARY KEY CHECK (id = 1), "
        "fence INTEGER, writer INTEGER, round INTEGER)");
}

ResourceLedger::~ResourceLedger() {
    sqlite3_close(db_);
}

void ResourceLedger::exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw StorageError("torture resource " + path_ + ": " + message);
    }
}

void ResourceLedger::fail(const std::string& what) {
    throw StorageError("torture resource " + path_ + ": " + what + ": " +
                       (db_ ? sqlite3_errmsg(db_) : "out of memory"));
}

bool ResourceLedger::write(int writer, int round, std::string_view token,
                           std::optional<std::int64_t> fence, std::string_view phase,
                           std::int64_t timeNs) {
    exec("BEGIN IMMEDIATE");
    try {
        bool accepted = true;
        if (checkFences_ && fence) {
            Statement newest;
            if (sqlite3_prepare_v2(db_, "SELECT fence, writer, round FROM newest WHERE id = 1", -1,
                                   &newest.stmt, nullptr) != SQLITE_OK)
                fail("cannot read the newest fence");
            if (sqlite3_step(newest.stmt) == SQLITE_ROW) {
                std::int64_t last = sqlite3_column_int64(newest.stmt, 0);
                bool sameHolder = sqlite3_column_int(newest.stmt, 1) == writer &&
                                  sqlite3_column_int(newest.stmt, 2) == round;
                accepted = *fence > last || (*fence == last && sameHolder);
            }
        }
        Statement insert;
        if (sqlite3_prepare_v2(db_,
                               "INSERT INTO writes (writer, round, token, fence, phase, accepted, "
                               "time_ns) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               -1, &insert.stmt, nullptr) != SQLITE_OK)
            fail("cannot prepare the write");
        sqlite3_bind_int(insert.stmt, 1, writer);
        sqlite3_bind_int(insert.stmt, 2, round);
        sqlite3_bind_text(insert.stmt, 3, token.data(), static_cast<int>(token.size()),
                          SQLITE_TRANSIENT);
        if (fence)
            sqlite3_bind_int64(insert.stmt, 4, *fence);
        else
            sqlite3_bind_null(insert.stmt, 4);
        sqlite3_bind_text(insert.stmt, 5, phase.data(), static_cast<int>(phase.size()),
                          SQLITE_TRANSIENT);
        sqlite3_bind_int(insert.stmt, 6, accepted ? 1 : 0);
        sqlite3_bind_int64(insert.stmt, 7, timeNs);
        if (sqlite3_step(insert.stmt) != SQLITE_DONE) fail("cannot record the write");
        if (accepted && fence) {
            Statement update;
            if (sqlite3_prepare_v2(db_,
                                   "INSERT OR REPLACE INTO newest (id, fence, writer, round) "
                                   "VALUES (1, ?, ?, ?)",
                                   -1, &update.stmt, nullptr) != SQLITE_OK)
                fail("cannot prepare the fence update");
            sqlite3_bind_int64(update.stmt, 1, *fence);
            sqlite3_bind_int(update.stmt, 2, writer);
            sqlite3_bind_int(update.stmt, 3, round);
            if (sqlite3_step(update.stmt) != SQLITE_DONE) fail("cannot store the newest fence");
        }
        exec("COMMIT");
        return accepted;
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

History ResourceLedger::entries() {
    Statement select;
    if (sqlite3_prepare_v2(db_,
                           "SELECT seq, writer, round, token, fence, phase, accepted, time_ns "
                           "FROM writes ORDER BY seq",
                           -1, &select.stmt, nullptr) != SQLITE_OK)
        fail("cannot read the writes");
    History out;
    while (sqlite3_step(select.stmt) == SQLITE_ROW) {
        Op op;
        op.type = OpType::Ok;
        op.f = "write";
        op.process = kResource;
        op.seq = sqlite3_column_int64(select.stmt, 0);
        op.writer = sqlite3_column_int(select.stmt, 1);
        op.round = sqlite3_column_int(select.stmt, 2);
        if (auto* token = sqlite3_column_text(select.stmt, 3))
            op.token = reinterpret_cast<const char*>(token);
        if (sqlite3_column_type(select.stmt, 4) != SQLITE_NULL)
            op.fence = sqlite3_column_int64(select.stmt, 4);
        if (auto* phase = sqlite3_column_text(select.stmt, 5))
            op.phase = reinterpret_cast<const char*>(phase);
        op.accepted = sqlite3_column_int(select.stmt, 6) != 0;
        op.timeNs = sqlite3_column_int64(select.stmt, 7);
        out.push_back(std::move(op));
    }
    return out;
}

}  // namespace lockscope::torture
