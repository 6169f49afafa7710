#pragma once
// The guide's fenced resource in a real SQLite file: a write is accepted only when its
// fencing token is higher than the last accepted one, so a holder that paused past its
// lease cannot overwrite a newer holder's result. Also once-only tables for side effects
// (the guide's send_email_once(report_date)). Safe to share between threads and processes.
// Every call throws StorageError when SQLite fails (a full disk, a file that is not a
// database); nothing else.
//
// The fences come from Redis (RedisLock). A lock server restarted without persistence
// counts from 1 again, so the next holder's fence is below the stored one and every write
// is refused as Stale: see redis_lock.h for how that is detected and remedied.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace lockscope {

struct StoredWrite {
    std::string body;
    std::int64_t fence = 0;
};

// What a fenced write did.
struct FencedWrite {
    enum class Status {
        Accepted,   // the fence was newer than the stored one (or the first): the body is stored
        Stale,      // a holder with a newer fence already wrote: yours paused past its lease
        SameFence,  // this fence already wrote (a retry of your own write): nothing changed
    };
    Status status = Status::Stale;
    std::int64_t currentFence = 0;  // the stored fence after this call
    bool accepted() const { return status == Status::Accepted; }
};
const char* toString(FencedWrite::Status status);

class FencedStore {
  public:
    // Opens or creates the database file and its tables.
    explicit FencedStore(const std::string& path);
    ~FencedStore();
    FencedStore(const FencedStore&) = delete;
    FencedStore& operator=(const FencedStore&) = delete;

    // UPDATE ... WHERE fence < ? (the first write creates the row), in one transaction with
    // the read of the stored fence that explains a refusal.
    FencedWrite write(std::string_view resource, std::string_view body, std::int64_t fence);
    std::optional<StoredWrite> read(std::string_view resource);

    // true for the first claim of this key ever, false after. Atomic across processes.
    bool claimOnce(std::string_view key);
    // At most once: claims the key, then runs the effect; returns whether it ran. An effect
    // that throws (or a crash during it) has still used up the claim: it never runs again.
    // Right for effects that must never repeat (a payment); for effects that must happen,
    // use runAtLeastOnce.
    bool runOnce(std::string_view key, const std::function<void()>& effect);
    // At least once: runs the effect unless a completion mark for key exists, and writes the
    // mark only after the effect returned. An effect that throws is retried by the next
    // call; two concurrent callers may both run it, so the effect must be idempotent (send
    // the email with an idempotency key). Returns whether it ran to completion now.
    bool runAtLeastOnce(std::string_view key, const std::function<void()>& effect);
    bool completed(std::string_view key);  // a completion mark exists
    int onceCount();                       // how many keys have been claimed

    const std::string& path() const { return path_; }

    struct Finalize {
        void operator()(sqlite3_stmt* s) const noexcept;
    };
    using Statement = std::unique_ptr<sqlite3_stmt, Finalize>;

  private:
    Statement prepare(const char* sql);
    std::int64_t storedFence(std::string_view resource);  // 0 when never written
    void exec(const char* sql);
    [[noreturn]] void fail(const std::string& what);

    std::string path_;
    sqlite3* db_ = nullptr;
    std::mutex mutex_;
};

}  // namespace lockscope
