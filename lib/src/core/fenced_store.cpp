#include "lockscope/fenced_store.h"

#include <sqlite3.h>

#include <memory>

#include "lockscope/errors.h"

namespace lockscope {
namespace {

using Statement = FencedStore::Statement;

void bindText(sqlite3_stmt* s, int index, std::string_view text) {
    sqlite3_bind_text(s, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

}  // namespace

void FencedStore::Finalize::operator()(sqlite3_stmt* s) const noexcept {
    sqlite3_finalize(s);
}

Statement FencedStore::prepare(const char* sql) {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &raw, nullptr) != SQLITE_OK) fail("prepare");
    return Statement(raw);
}

FencedStore::FencedStore(const std::string& path) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StorageError("cannot open fenced store " + path + ": " + message);
    }
    sqlite3_busy_timeout(db_, 5000);  // several processes may write the same file
    try {
        exec(
            "CREATE TABLE IF NOT EXISTS fenced_writes ("
            " resource TEXT PRIMARY KEY, body BLOB NOT NULL, fence INTEGER NOT NULL)");
        exec(
            "CREATE TABLE IF NOT EXISTS once_effects (key TEXT PRIMARY KEY, claimed_at TEXT NOT "
            "NULL)");
        exec(
            "CREATE TABLE IF NOT EXISTS completed_effects (key TEXT PRIMARY KEY, completed_at "
            "TEXT NOT NULL)");
    } catch (...) {
        sqlite3_close(db_);  // the destructor does not run for a constructor that throws
        throw;
    }
}

FencedStore::~FencedStore() {
    sqlite3_close(db_);
}

void FencedStore::fail(const std::string& what) {
    throw StorageError("fenced store " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

void FencedStore::exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw StorageError("fenced store " + path_ + ": " + message);
    }
}

const char* toString(FencedWrite::Status status) {
    switch (status) {
        case FencedWrite::Status::Accepted:
            return "accepted";
        case FencedWrite::Status::Stale:
            return "stale";
        case FencedWrite::Status::SameFence:
            return "same fence";
    }
    return "?";
}

std::int64_t FencedStore::storedFence(std::string_view resource) {
    Statement s = prepare("SELECT fence FROM fenced_writes WHERE resource = ?1");
    bindText(s.get(), 1, resource);
    int rc = sqlite3_step(s.get());
    if (rc == SQLITE_DONE) return 0;
    if (rc != SQLITE_ROW) fail("read the fence of " + std::string(resource));
    return sqlite3_column_int64(s.get(), 0);
}

FencedWrite FencedStore::write(std::string_view resource, std::string_view body,
                               std::int64_t fence) {
    // One statement, so the comparison and the write cannot interleave with another writer;
    // the transaction keeps the fence read for the answer consistent with it.
    static constexpr const char* sql =
        "INSERT INTO fenced_writes (resource, body, fence) VALUES (?1, ?2, ?3) "
        "ON CONFLICT(resource) DO UPDATE SET body = excluded.body, fence = excluded.fence "
        "WHERE fenced_writes.fence < excluded.fence";
    std::lock_guard lock(mutex_);
    exec("BEGIN IMMEDIATE");
    try {
        Statement s = prepare(sql);
        bindText(s.get(), 1, resource);
        sqlite3_bind_blob(s.get(), 2, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(s.get(), 3, fence);
        if (sqlite3_step(s.get()) != SQLITE_DONE) fail("write " + std::string(resource));
        FencedWrite result;
        if (sqlite3_changes(db_) == 1) {
            result = {FencedWrite::Status::Accepted, fence};
        } else {
            std::int64_t current = storedFence(resource);
            result = {
                current == fence ? FencedWrite::Status::SameFence : FencedWrite::Status::Stale,
                current};
        }
        exec("COMMIT");
        return result;
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

std::optional<StoredWrite> FencedStore::read(std::string_view resource) {
    std::lock_guard lock(mutex_);
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT body, fence FROM fenced_writes WHERE resource = ?1", -1,
                           &raw, nullptr) != SQLITE_OK)
        fail("prepare read");
    Statement s(raw);
    bindText(s.get(), 1, resource);
    int rc = sqlite3_step(s.get());
    if (rc == SQLITE_DONE) return std::nullopt;
    if (rc != SQLITE_ROW) fail("read " + std::string(resource));
    const void* body = sqlite3_column_blob(s.get(), 0);
    int size = sqlite3_column_bytes(s.get(), 0);
    return StoredWrite{std::string(static_cast<const char*>(body), static_cast<std::size_t>(size)),
                       sqlite3_column_int64(s.get(), 1)};
}

bool FencedStore::claimOnce(std::string_view key) {
    std::lock_guard lock(mutex_);
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_,
                           "INSERT OR IGNORE INTO once_effects (key, claimed_at) "
                           "VALUES (?1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                           -1, &raw, nullptr) != SQLITE_OK)
        fail("prepare claim");
    Statement s(raw);
    bindText(s.get(), 1, key);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("claim " + std::string(key));
    return sqlite3_changes(db_) == 1;
}

bool FencedStore::runOnce(std::string_view key, const std::function<void()>& effect) {
    if (!claimOnce(key)) return false;
    effect();
    return true;
}

bool FencedStore::completed(std::string_view key) {
    std::lock_guard lock(mutex_);
    Statement s = prepare("SELECT 1 FROM completed_effects WHERE key = ?1");
    bindText(s.get(), 1, key);
    int rc = sqlite3_step(s.get());
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) fail("read completion of " + std::string(key));
    return rc == SQLITE_ROW;
}

bool FencedStore::runAtLeastOnce(std::string_view key, const std::function<void()>& effect) {
    if (completed(key)) return false;
    effect();  // throws: no mark, so the next call runs it again
    std::lock_guard lock(mutex_);
    Statement s = prepare(
        "INSERT OR IGNORE INTO completed_effects (key, completed_at) "
        "VALUES (?1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))");
    bindText(s.get(), 1, key);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("mark " + std::string(key) + " completed");
    return true;
}

int FencedStore::onceCount() {
    std::lock_guard lock(mutex_);
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT COUNT(*) FROM once_effects", -1, &raw, nullptr) !=
        SQLITE_OK)
        fail("prepare count");
    Statement s(raw);
    if (sqlite3_step(s.get()) != SQLITE_ROW) fail("count once effects");
    return sqlite3_column_int(s.get(), 0);
}

}  // namespace lockscope
