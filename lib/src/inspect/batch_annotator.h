#pragma once
// The read pipeline behind Scanner: queues the commands that annotate a batch of keys on a
// connection (without waiting) and later decodes their replies into LockRecords.
//
//   main stage, per batch:  PTTL k1..kn, MGET k1..kn, MGET fence keys
//                           (GET per key if MGET is denied)
//   on a cluster node (an MGET across slots is refused there), per batch:
//                           PTTL k1..kn, one MGET per slot of its lock keys and of the
//                           fence keys in that slot; a fence in another slot is read from
//                           its slot's owner (ScanOptions::fencesElsewhere, after the batch's
//                           replies) when the scan knows it is on a cluster node, else GET
//   follow-up, per key:     TYPE, PTTL, GET, HLEN, HSCAN k 0 COUNT cap, GET fence
//   known type (a watcher's poll of a key it has read before), per key:
//                           hash:  TYPE, PTTL, HLEN, HSCAN k 0 COUNT cap, GET fence
//                           zset:  TYPE, PTTL, ZCARD, ZRANGE k 0 cap-1 WITHSCORES
//                           other: TYPE, PTTL
//   a zset found by a follow-up is read once more as a known zset, for its members (the
//   holders of Symfony Lock and redis-semaphore), capped like hash fields
//   so polling a hash never sends GET and a list never gets HSCAN (no WRONGTYPE noise in
//   the command log); a key whose TYPE changed is read again the full way.
//
// Hash fields are read capped so a huge hash never makes a slow command: HSCAN with COUNT
// cap. When HSCAN is denied, HGETALL is sent only for hashes HLEN says are within the cap
// (one more round); when HLEN is denied too, HGETALL is the only way left and the notes
// say it is uncapped.
//
// A key whose MGET value is nil but which still has a PTTL is not a string: it goes to the
// follow-up stage. Internal to lockscope_inspect.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scan_options.h"

namespace lockscope::inspect {

class BatchAnnotator {
  public:
    enum class HashRead : std::uint8_t { Scan, GetAll, None };

    struct Sent {
        std::vector<std::string> keys;
        std::vector<int> fenceIndex;  // per key: index into the fence reads, or -1
        int fences = 0;
        bool followUp = false;
        bool perKeyGet = false;              // main stage sent as GET per key
        bool slotGroups = false;             // main stage sent as one MGET per slot
        std::vector<std::size_t> groupEnds;  // slot groups: keys [previous end, end)
        std::vector<int> groupSlots;         // slot groups: the slot of each
        std::vector<int> fenceInGroup;       // per key: its fence's index in its group's MGET
        bool hlen = false;                   // follow-up sent HLEN per key
        bool typeSent = false;               // follow-up sent TYPE per key
        std::vector<HashRead> hashRead;      // follow-up, per key: how its fields were read
        // follow-up, per key: the type it was read as (String: every read, type unknown).
        std::vector<ValueType> expected;
        std::vector<bool> zsetRead;  // follow-up, per key: its members were asked for
        SteadyClock::time_point sentAt;
    };

    struct Output {
        std::vector<LockRecord> records;
        std::vector<std::string> followUps;    // to send as follow-ups next round
        std::vector<std::string> retryMain;    // to send again as main stage (after a degradation)
        std::vector<std::string> retryFollow;  // to send again as follow-ups
        std::vector<std::string> vanished;     // keys gone before they were read
        // Keys a cluster node answered MOVED, ASK or TRYAGAIN for (their slot moved or is
        // moving), with that answer: not gone, read from the slot's new owner instead.
        std::vector<std::pair<std::string, std::string>> redirected;
    };

    BatchAnnotator(const ScanOptions& options, const std::shared_ptr<const std::string>& instance);

    Sent sendMain(Connection& c, std::vector<std::string> keys);
    // A scan's keys on their way to sendMain. On a cluster node, where one MGET reads the keys
    // of one slot and SCAN returns about one key per slot per page, keys are held back until
    // kSlotGroupKeys have come (or the scan is done: drain), so a slot's keys are read
    // together; elsewhere they pass straight through.
    std::vector<std::string> gatherBySlot(std::vector<std::string> keys, bool drain);
    static constexpr std::size_t kSlotGroupKeys = 20000;
    // expected, if given: per key, the type it had when last read (String: unknown).
    Sent sendFollowUp(Connection& c, std::vector<std::string> keys,
                      std::vector<ValueType> expected = {});
    // Reads exactly the replies of `sent` (in order) and decodes them into out. The keys are
    // moved out of sent into the records.
    void receive(Connection& c, Sent& sent, Output& out);

    const std::vector<std::string>& notes() const { return notes_; }
    // A new pass: no key has been read again yet (see readAgain).
    void forgetRereads() { rereads_.clear(); }
    // How many times one key may be sent back to be read again because its reads disagreed
    // (MGET found no string where TYPE says string, the type changed between reads): a key
    // rewritten that often, or a server whose answers contradict each other, would keep a
    // pass reading the same keys forever.
    static constexpr int kMaxRereads = 4;

  private:
    void receiveMain(Connection& c, Sent& sent, Output& out);
    // On a cluster node: the fence key is in another slot than the lock key, so this node
    // is not asked for it (batch_fences_elsewhere.cpp).
    bool fenceElsewhere(std::string_view key, std::string_view fence) const;
    // Reads those fences of out.records[from..] from fencesElsewhere (their slot's owner).
    void readFencesElsewhere(std::vector<LockRecord>& records, std::size_t from);
    // The main stage on a cluster node (batch_slot_groups.cpp).
    Sent sendSlotGroups(Connection& c, std::vector<std::string> keys);
    void receiveSlotGroups(Connection& c, Sent& sent, Output& out);
    // Puts the fence key of each lock key into fenceArena_; returns (offset, length) of each.
    std::vector<std::pair<std::size_t, std::size_t>> arrangeFenceKeys(
        const std::vector<std::string>& keys, std::vector<int>& fenceIndex);
    std::string_view fenceKey(const std::vector<std::pair<std::size_t, std::size_t>>& spans,
                              int index) const;
    void receiveFollowUp(Connection& c, Sent& sent, Output& out);
    // The follow-up stage, one key at a time (batch_follow_up.cpp).
    struct FollowUpReplies;
    static FollowUpReplies readFollowUp(Connection& c, const Sent& s, std::size_t i);
    // Learns the reads the ACL refused; true when the key must be read again another way.
    bool learnRefusedReads(FollowUpReplies& replies, HashRead read);
    void settleFollowUp(std::string&& key, const FollowUpReplies& replies, const Sent& s,
                        std::size_t i, Output& out);
    LockRecord makeRecord(std::string&& key, SteadyClock::time_point at, std::int64_t pttl) const;
    void setToken(LockRecord& r, std::string_view value) const;
    void note(const std::string& text);
    // Counts a key sent back to be read again; throws MalformedReplyError past kMaxRereads.
    void readAgain(const std::string& key, std::string_view why);
    void noteHashReads();
    HashRead hashReadFor(const std::string& key);
    void setFields(LockRecord& r, const Reply& h, HashRead read, std::int64_t length) const;
    // A sorted set's members and scores, capped (batch_follow_up.cpp).
    bool sendMemberReads(Connection& c, const std::string& key);
    void setMembers(LockRecord& r, const Reply& length, const Reply& members) const;

    const ScanOptions& options_;
    InstanceName instance_;  // interned once, not at each record
    bool mget_ = true;
    bool slotGroups_ = false;                // a cluster node: one MGET per slot
    std::vector<std::string> heldForSlots_;  // gatherBySlot's keys not yet read
    bool hscan_ = true;
    bool hlen_ = true;
    std::unordered_set<std::string> smallHashes_;  // HLEN within the cap: HGETALL is safe
    bool zsets_ = true;                            // ZCARD and ZRANGE allowed
    std::unordered_set<std::string> knownZsets_;   // found by TYPE: read their members next
    std::string fenceArena_;                       // the fence keys of one batch, end to end
    std::vector<std::string_view> argv_;           // reused MGET argument list
    bool typeAllowed_ = true;
    std::vector<std::string> notes_;
    std::unordered_map<std::string, int> rereads_;  // keys read again in this pass
};

// Throws PermissionError / ReplyError for an error reply to `command` on `instance`.
[[noreturn]] void throwReplyError(std::string_view command, const std::string& instance,
                                  std::string_view text);

}  // namespace lockscope::inspect
