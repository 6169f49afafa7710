#pragma once
// What a run records for the replay panel and the CLI: lanes (Jepsen style, one per
// process or resource), typed events with virtual times, narrated beats, intervals
// (ownership bars, pause and lapse bands) and PTTL samples of the lock key. All of it is
// append-only while simulating, so a fork truncates it to a recorded size and goes on.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/sim/message.h"
#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

using LaneId = int;

enum class LaneKind { Instance, RedisKey, OutputFile, FinanceOutbox, FencedStore, Operator };

struct Lane {
    LaneId id = 0;
    LaneKind kind = LaneKind::Instance;
    std::string name;      // "A", "lock:report", "report.csv", "finance outbox"
    std::string subtitle;  // "scheduler instance", "Redis key"...
    int node = -1;         // RedisKey lanes: the Redis node whose lock key this lane shows
    std::string key;       // RedisKey lanes: the key it shows (the story's lock key)
};

enum class EventKind {
    Command,       // a Redis command and its reply (on the sender's lane)
    KeyChanged,    // the lock key got a new holder or lost one (on the key lane)
    KeyExpired,    // the lock key's TTL ran out (on the key lane)
    FileOpened,    // a run opened (truncated) the output file
    ChunkWritten,  // one chunk written; detail says whether it interleaved
    EmailSent,
    EmailSuppressed,
    FencedWriteAccepted,
    FencedWriteRejected,
    PauseStarted,
    PauseEnded,
    Crashed,
    RunStarted,
    RunCompleted,
    RunAborted,
    RunRefused,
    Replicated,   // a replica applied a write of its primary (on the replica's key lane)
    Failover,     // a replica was promoted to primary
    ClockJumped,  // a Redis node's clock stepped forward (on its key lane)
    Printed,      // a line a scenario's script printed
    Note,         // narration with no command (an operator reading the inspector)
};

const char* toString(EventKind kind);

enum class KeyAccess { None, Read, Write };

struct TimelineEvent {
    int index = 0;
    VirtualMs time = 0;
    LaneId lane = 0;
    EventKind kind = EventKind::Note;
    std::string actor;
    std::string command;  // Command only: the text as sent
    std::string shown;    // Command only: as the guide writes it ("acquire(lock:x, …)")
    std::string key;      // Command only: the key it is about
    std::string lockOp;   // Command only: "acquire", "release", "extend", or empty
    std::string reply;    // Command only: redis-cli style reply
    // Command only: what it did to the key's value — read it (GET), changed it (a SET, SETNX,
    // DEL, INCR or script that took effect), or neither. The explorer's read-then-write rule.
    KeyAccess access = KeyAccess::None;
    std::int64_t ttlMs = -1;  // Command only: the TTL it sets, in ms (-1: none)
    std::string detail;       // one line for a tooltip
    std::string_view script;  // the Lua source of a script command (static storage)
    int beat = -1;            // the beat this event is narrated in, -1 if none
    int step = 0;             // the simulator step that recorded it (World::steps)
};

// A "predict" prompt: the question is asked on the beat before, the answer revealed on
// the beat that carries it.
struct Prompt {
    std::string question;
    std::string answer;
};

struct Beat {
    int index = 0;
    VirtualMs time = 0;
    LaneId lane = 0;
    std::string actor;
    std::string command;  // empty for beats that are not Redis commands
    std::string shown;    // the command as the guide writes it (the raw one in `command`)
    std::string reply;
    std::string narration;
    // The narration as translatable messages, when the story narrates by id (message.h);
    // then `narration` is their English text. Empty: `narration` is English only.
    std::vector<Message> narrationParts;
    std::optional<Prompt> predict;
    int eventIndex = 0;
    int step = 0;  // the simulator step that recorded it: the story "at this beat" is the
                   // recording up to and including this step
};

enum class IntervalKind {
    Ownership,    // holds the lock (key lane and the holder's lane)
    JobRun,       // the job is running on this instance
    Pause,        // GC / VM pause: the process is frozen
    LeaseLapsed,  // still working, but its lock expired or was deleted
    Crashed,      // the process is dead
    NoTtl,        // the key exists without a TTL (key lane): it will never expire
};

const char* toString(IntervalKind kind);

struct Interval {
    LaneId lane = 0;
    IntervalKind kind = IntervalKind::Ownership;
    VirtualMs from = 0;
    VirtualMs to = 0;
    std::string label;  // holder name, "GC pause"...
    std::string token;
    std::int64_t fence = 0;
    bool ongoing = false;  // still open when the run ended
    int node = 0;          // the Redis node an ownership or no-TTL interval is about
    std::string holder;    // Ownership: the actor holding the lock
    int fromStep = 0;      // the simulator step that opened it
    int toStep = -1;       // the step that closed it; -1 while open (ongoing at the end)
    std::string key;       // Ownership and NoTtl: the Redis key held (a seat's, the lock key)
};

struct PttlSample {
    VirtualMs time = 0;
    std::int64_t pttl = -2;  // -2 no key, -1 no TTL, else ms left
    int node = 0;            // which Redis node's lock key
    int step = 0;            // World::steps when sampled
};

struct Recording {
    std::vector<Lane> lanes;
    std::vector<TimelineEvent> events;
    std::vector<Beat> beats;
    std::vector<Interval> intervals;
    std::vector<PttlSample> pttl;

    struct Size {
        std::size_t events = 0, beats = 0, intervals = 0, pttl = 0;
    };
    Size size() const { return {events.size(), beats.size(), intervals.size(), pttl.size()}; }
    void truncate(const Size& s);
    const Lane* lane(LaneId id) const;
    const Lane* laneNamed(std::string_view name) const;
};

}  // namespace lockscope::sim
