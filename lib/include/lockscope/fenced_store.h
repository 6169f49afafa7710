#pragma once
// The guide's fenced resource in a real SQLite file: a write is accepted only when its
// fencing token is higher than the last accepted one, so a holder that paused past its
// lease cannot overwrite a newer holder's result. Also a once-only table for side effects
// (the guide's send_email_once(report_date)). Safe to share between threads.

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;

namespace lockscope {

struct StoredWrite {
    std::string body;
    std::int64_t fence = 0;
};

class FencedStore {
  public:
    // Opens or creates the database file and its tables.
    explicit FencedStore(const std::string& path);
    ~FencedStore();
    FencedStore(const FencedStore&) = delete;
    FencedStore& operator=(const FencedStore&) = delete;

    // UPDATE ... WHERE fence < ? (the first write creates the row). true: this write won;
    // false: a holder with an equal or newer fence already wrote.
    bool write(std::string_view resource, std::string_view body, std::int64_t fence);
    std::optional<StoredWrite> read(std::string_view resource);

    // true for the first claim of this key ever, false after. Atomic across processes.
    bool claimOnce(std::string_view key);
    // Runs effect only if this is the first claim of key; returns whether it ran.
    bool runOnce(std::string_view key, const std::function<void()>& effect);
    int onceCount();  // how many keys have been claimed

    const std::string& path() const { return path_; }

  private:
    void exec(const char* sql);
    [[noreturn]] void fail(const std::string& what);

    std::string path_;
    sqlite3* db_ = nullptr;
    std::mutex mutex_;
};

}  // namespace lockscope
