#pragma once
// The read pipeline behind Scanner: queues the commands that annotate a batch of keys on a
// connection (without waiting) and later decodes their replies into LockRecords.
//
//   main stage, per batch:  PTTL k1..kn, MGET k1..kn, MGET fence keys   (GET per key if MGET is
//   denied) follow-up, per key:     TYPE, PTTL, GET, HSCAN k 0 COUNT cap (HGETALL if denied), GET
//   fence
//
// A key whose MGET value is nil but which still has a PTTL is not a string: it goes to the
// follow-up stage. Internal to lockscope_inspect.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scan_options.h"

namespace lockscope::inspect {

class BatchAnnotator {
  public:
    struct Sent {
        std::vector<std::string> keys;
        std::vector<int> fenceIndex;  // per key: index into the fence reads, or -1
        int fences = 0;
        bool followUp = false;
        bool perKeyGet = false;  // main stage sent as GET per key
        bool hgetall = false;    // follow-up sent HGETALL instead of HSCAN
        SteadyClock::time_point sentAt;
    };

    struct Output {
        std::vector<LockRecord> records;
        std::vector<std::string> followUps;    // to send as follow-ups next round
        std::vector<std::string> retryMain;    // to send again as main stage (after a degradation)
        std::vector<std::string> retryFollow;  // to send again as follow-ups
        std::vector<std::string> vanished;     // keys gone before they were read
    };

    BatchAnnotator(const ScanOptions& options, std::shared_ptr<const std::string> instance);

    Sent sendMain(Connection& c, std::vector<std::string> keys);
    Sent sendFollowUp(Connection& c, std::vector<std::string> keys);
    // Reads exactly the replies of `sent` (in order) and decodes them into out. The keys are
    // moved out of sent into the records.
    void receive(Connection& c, Sent& sent, Output& out);

    const std::vector<std::string>& notes() const { return notes_; }

  private:
    void receiveMain(Connection& c, Sent& sent, Output& out);
    void receiveFollowUp(Connection& c, Sent& sent, Output& out);
    LockRecord makeRecord(std::string&& key, SteadyClock::time_point at, std::int64_t pttl) const;
    void setToken(LockRecord& r, std::string_view value) const;
    void note(const std::string& text);

    const ScanOptions& options_;
    std::shared_ptr<const std::string> instance_;
    bool mget_ = true;
    bool hscan_ = true;
    bool typeAllowed_ = true;
    std::vector<std::string> notes_;
};

// Throws PermissionError / ReplyError for an error reply to `command` on `instance`.
[[noreturn]] void throwReplyError(std::string_view command, const std::string& instance,
                                  std::string_view text);

}  // namespace lockscope::inspect
