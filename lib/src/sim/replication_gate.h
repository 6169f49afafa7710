#pragma once
// A TCP relay on loopback between a real replica and its real primary, so that live mode
// can hold back asynchronous replication exactly as long as the model says a write is in
// flight. The replica runs REPLICAOF 127.0.0.1 <gate port>; what it sends goes straight
// through, while the primary's replication stream passes only up to a byte boundary the
// harness moves. Real Redis replicates within microseconds on loopback: without the gate
// no replica would ever miss a write, and the failover stories could not happen for real.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace lockscope::sim {

class ReplicationGate {
  public:
    // Listens on a free loopback port and relays each connection to primaryPort.
    explicit ReplicationGate(int primaryPort);
    ~ReplicationGate();
    ReplicationGate(const ReplicationGate&) = delete;
    ReplicationGate& operator=(const ReplicationGate&) = delete;

    int port() const { return port_; }

    // Positions count the bytes the primary sent through this gate since the replica
    // connected (the harness maps the primary's replication offset onto them).

    // A write is about to reach the primary, whose stream is at position: nothing from
    // there on passes (unless the stream is already held further back).
    void holdFrom(std::uint64_t position);
    // Lets the stream through up to position.
    void releaseTo(std::uint64_t position);
    // Lets everything through until the next holdFrom (nothing is in flight).
    void open();
    // Waits (up to 2 s) until the stream up to position has been written to the replica.
    void waitForwarded(std::uint64_t position);
    std::uint64_t forwardedBytes();
    // The link breaks: what is held is never delivered, both connections close, and the
    // replica can no longer reach its primary through this gate.
    void cut();

  private:
    void run();
    void relayOnce();
    void acceptReplica();
    void forwardReleased();
    void closeConnections();
    void wake();

    int primaryPort_;
    int port_ = 0;
    int listenFd_ = -1;
    int replicaFd_ = -1;
    int primaryFd_ = -1;
    int wakePipe_[2] = {-1, -1};
    std::mutex mutex_;  // guards the stream state below
    std::condition_variable forwardedChanged_;
    std::string held_;  // received from the primary, not yet forwarded
    std::uint64_t received_ = 0, forwarded_ = 0;
    std::uint64_t limit_ = UINT64_MAX;  // forward up to this stream position
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace lockscope::sim
