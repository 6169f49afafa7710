#pragma once
// What an actor's step can do, and where the rules are kept: every command, file write,
// email and fenced save goes through here, is recorded as an event (and usually a
// narrated beat), and updates the outcome. Actors never count outcomes themselves.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/sim/redis_command.h"
#include "lockscope/sim/simulator.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

// Why another client's belief overlaps a new one: what made its key absent where the new
// holder got it, derived from the run (never a fixed sentence).
struct OverlapCause {
    enum class Kind { LeaseExpired, Failover, ClockJump, Other };
    Kind kind = Kind::Other;
    std::string holder;       // the earlier believer
    std::string explanation;  // one or two sentences for predictions and narration
};

class StepContext {
  public:
    StepContext(World& world, Recording& recording, const LiveBackends& live, Actor& self);

    VirtualMs now() const { return world_.now; }
    Actor& self() { return self_; }
    World& world() { return world_; }
    SeededRng& rng() { return world_.rng; }

    void wakeAfter(VirtualMs delay);
    // Work that takes `duration` of the process's running time: a pause meanwhile delays it
    // by the pause's length (the work left when it froze is still to do).
    void workFor(VirtualMs duration);
    void stop();  // the actor has nothing more to do

    // Sends a command (to the model, or the real server in live mode) and records it as a
    // beat whose narration starts with the rules' own facts ("deleted B's lock...").
    CommandReply send(const RedisCommand& command);
    // Puts text before the facts in the narration of this step's latest beat.
    void narrate(const std::string& text);
    // The same by message id (message.h), so the window can translate it; the rules' facts
    // follow as an English literal.
    void narrate(const Message& message);
    // Several messages in order (an opener, a literal of facts, a consequence).
    void narrate(const std::vector<Message>& messages);
    // A question to ask on the beat before this step's latest beat, answered on it.
    void predict(std::string question, std::string answer);
    // The same for a beat of this step chosen by index (see nextBeatIndex()).
    void predictAt(int beat, std::string question, std::string answer);
    int nextBeatIndex() const { return static_cast<int>(recording_.beats.size()); }
    // A beat without a command (an operator reading the inspector, a decision).
    void note(const std::string& narration);
    void note(const Message& narration);
    void note(const std::vector<Message>& narration);
    // A line the scenario's script prints (expiry-race's "True 1").
    void print(const std::string& line);

    // The job's lifecycle on this instance.
    void runStarted(std::int64_t fence = 0);
    void runRefused(const std::string& why);
    void runCompleted();
    void runAborted(const std::string& why);

    // The report output file.
    void openFile();
    bool writeChunk(int chunk);  // false: the write interleaved with another run's
    void closeFile();

    // Finance: an email that always goes out, or one keyed by date through the store.
    void sendEmail();
    bool sendEmailOnce();
    // The guide's save_report: accepted only with a fence above the last accepted one.
    bool fencedSave(const std::string& body, std::int64_t fence);

    // A command the network lost: recorded with reply "(timeout)" after `timeout`, never
    // executed (a Redlock node the client cannot reach).
    void sendUnanswered(const RedisCommand& command, VirtualMs timeout);
    // A command the node runs, whose reply comes after replyAfter > timeout: the client has
    // given up and counts it as a failure (recorded with reply "(timeout)").
    void sendReplyTooLate(const RedisCommand& command, VirtualMs replyAfter, VirtualMs timeout);
    // WAIT numReplicas timeout on a node: the actor blocks (do not call wakeAfter) and is woken
    // when enough replicas acknowledged or the timeout ran out; waitReply() then says how many
    // (in live mode after asking the real server the same WAIT).
    void waitForReplicas(int node, int numReplicas, VirtualMs timeout);
    std::int64_t waitReply();

    // What the client believes it holds (a lock key, a seat), with when the key it set runs
    // out and on which node. Starting to believe what another client believes it holds counts
    // an overlapping hold, by its cause, and says so in the narration.
    void believeHeld(const std::string& resource, std::optional<VirtualMs> leaseEnds = {},
                     int node = -1);
    // Whether another client believes it holds resource now, and what let this one get it.
    std::optional<OverlapCause> whyAlsoHeld(const std::string& resource) const;
    void stopBelieving(const std::string& resource);
    // The client extended its lease: its belief now runs to the new end (a watchdog).
    void renewBelief(const std::string& resource, VirtualMs leaseEnds);
    // A Redlock attempt ended without the lock (no majority, or no validity left).
    void lockAttemptFailed(const std::string& why);
    void lockAttemptFailed(const std::vector<Message>& why);
    // A SET NX was refused (nil): the lock or hold is taken. Counted, no beat of its own.
    void lockAttemptRefused();

    // atomic-counter: the counter read at the end against the adds made.
    void counterChecked(std::int64_t expected, std::int64_t actual);
    // atomic-counter: one add finished, after `commands` commands (its price).
    void updateMade(int commands);
    // atomic-counter: the worker's SET of the count it computed, just sent. The rules judge
    // what kept other writers out of its GET-then-SET: no lock at all, or a lock whose key
    // had already expired (counted, and said in the beat, with who holds it now).
    void counterWrittenBack();

    // The report row as a plain resource: read its version (the fence a Redlock client can
    // derive from the resource itself), and a write with no fence check at all.
    std::int64_t readFence();
    // A fencing token from a monotonic counter (the store's sequence): strictly increasing.
    std::int64_t issueFencingToken();
    void plainSave(const std::string& body);
    // The bookings table's INSERT; false when the database refused it (fix: unique seat).
    bool confirmBooking(const std::string& event, const std::string& seat);

    // Facts for narration.
    const Holding* holding(int node = 0) const { return world_.currentHolding(node); }
    const Holding* lastHoldingOf(const std::string& actor, int node = 0) const {
        return world_.lastHoldingOf(actor, node);
    }
    std::int64_t pttl(int node = 0) const;  // of the lock key, now, from the model

  private:
    // Adds a sentence (the rules' facts) to the current beat's narration, and to its
    // message parts when it has them: the window shows those, the CLI the narration.
    void appendToNarration(const std::string& sentence);
    // Runs a command on the model (and the real server in live mode) and records it.
    CommandReply execute(const RedisCommand& command);
    int recordCommand(const RedisCommand& command, const CommandReply& ran,
                      const std::string& reply);
    int emit(EventKind kind, LaneId lane, std::string detail);
    int beat(int eventIndex, std::string narration);
    void updateOwnership(const RedisCommand& command, const CommandReply& reply);
    void lostLock(int node, const std::string& key, const std::string& how);
    void replicate(const RedisCommand& command);
    void endRun(RunState state);

    World& world_;
    Recording& recording_;
    const LiveBackends& live_;
    Actor& self_;
    std::string facts_;  // the rules' facts about this step's latest beat
    // A note's messages when facts_ is that note's text: narrate() after note() keeps them
    // as messages rather than an English literal.
    std::vector<Message> noteParts_;
};

// A PTTL reply in words: -2 and -1 are not times ("the key no longer exists (PTTL -2)",
// "no TTL (PTTL -1)"), anything else is "1.25 s left".
std::string describePttl(std::int64_t pttl);

// Recording helpers shared by the context and the simulator loop: an event at world.now,
// and a beat narrating it.
int recordEvent(const World& world, Recording& recording, EventKind kind, LaneId lane,
                const std::string& actor, const std::string& detail);
void recordBeat(Recording& recording, int eventIndex, const std::string& narration);
// The same narrated by message ids (message.h): its English text is the messages rendered.
void recordBeat(Recording& recording, int eventIndex, const std::vector<Message>& narration);

// Interval bookkeeping shared by the context and the simulator loop.
void openInterval(World& world, Interval interval);
// Closes the open interval of that kind on lane and node; of that key only, when key is given.
void closeInterval(World& world, Recording& recording, LaneId lane, IntervalKind kind, VirtualMs at,
                   int node = 0, const std::string& key = {});
// Called when a recorded key (World::recordsHolders) on a node lost its holder (expiry, a DEL,
// a release, an overwrite).
void recordLockLost(World& world, Recording& recording, int node, const std::string& key,
                    const std::string& how);
// Whether actor holds the lock key on a majority of the nodes right now (the only node of a
// single-server story): the rule for "stale" writes.
bool holdsLockNow(const World& world, const std::string& actor);

}  // namespace lockscope::sim
