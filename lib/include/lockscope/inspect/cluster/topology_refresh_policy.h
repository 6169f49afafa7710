#pragma once
// When a watcher of a Redis Cluster asks for its topology again (CLUSTER SHARDS or SLOTS).
// Asking every second costs each node a command per second per watcher for an answer that
// almost never changes, and a change is rarely silent: a moved slot answers MOVED or ASK, a
// cluster without quorum answers CLUSTERDOWN, a dead node drops or refuses its connections.
// So the topology is asked again when one of those was seen, and otherwise every 30 s, a
// slow safety net for a change that caused no error on our side. A lost node (or CLUSTERDOWN)
// also makes the next minute unsettled, asked every second: the failover it announces comes
// only after cluster-node-timeout, later than the error itself. Qt-free and clock-free: the
// caller passes the time, so the decisions can be checked without waiting.

#include <chrono>
#include <optional>

namespace lockscope::inspect {

class TopologyRefreshPolicy {
  public:
    using Clock = std::chrono::steady_clock;
    struct Timing {
        Clock::duration quiet = std::chrono::seconds(30);         // the safety net
        Clock::duration unsettled = std::chrono::seconds(1);      // while a node is lost
        Clock::duration settleWindow = std::chrono::seconds(60);  // how long that lasts
    };

    TopologyRefreshPolicy() : TopologyRefreshPolicy(Timing{}) {}
    explicit TopologyRefreshPolicy(Timing timing) : timing_(timing) {}

    // The topology was asked for and answered.
    void noteAsked(Clock::time_point now);
    // No node answered: asked again at the unsettled cadence, not at every step.
    void noteAskFailed(Clock::time_point now);
    // A MOVED or ASK reply: a slot changed hands (or is changing); ask at the next chance.
    void noteRedirect();
    // A node's connection was lost or refused, or a node answered CLUSTERDOWN: ask at the
    // next chance and every second for settleWindow, so the failover is seen when it lands.
    void noteNodeLost(Clock::time_point now);

    bool dueForRefresh(Clock::time_point now) const;
    bool unsettled(Clock::time_point now) const { return now < unsettledUntil_; }

  private:
    Timing timing_;
    std::optional<Clock::time_point> lastAsked_;  // none: never asked, due at once
    bool reasonPending_ = false;                  // a redirect or a loss since the last ask
    Clock::time_point unsettledUntil_{};
};

}  // namespace lockscope::inspect
