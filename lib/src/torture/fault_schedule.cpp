#include "fault_schedule.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace lockscope::torture {
namespace {

using std::chrono::milliseconds;

class Draw {
  public:
    explicit Draw(std::uint64_t seed) : rng_(seed) {}
    // A length between lo and hi times the TTL.
    milliseconds scaled(milliseconds ttl, double lo, double hi) {
        return milliseconds(static_cast<long long>(ttl.count() * uniform(lo, hi)));
    }
    int below(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }
    std::vector<int> minority(int nodes) {  // 1 node, or up to (n-1)/2 of them
        std::vector<int> all(nodes);
        std::iota(all.begin(), all.end(), 0);
        std::shuffle(all.begin(), all.end(), rng_);
        int count = nodes < 3 ? 1 : 1 + below((nodes - 1) / 2);
        all.resize(count);
        std::sort(all.begin(), all.end());
        return all;
    }

  private:
    double uniform(double lo, double hi) { return std::uniform_real_distribution(lo, hi)(rng_); }
    std::mt19937_64 rng_;
};

FaultEvent drawEvent(FaultKind kind, const FaultPlanShape& s, Draw& draw) {
    FaultEvent e;
    e.kind = kind;
    e.worker = draw.below(s.workers);
    switch (kind) {
        case FaultKind::Pause:  // a GC pause longer than the lease
            e.length = draw.scaled(s.ttl, 1.5, 3.0);
            break;
        case FaultKind::Delay:  // replies held back about a lease long
            e.length = draw.scaled(s.ttl, 1.5, 3.0);
            e.magnitude = draw.scaled(s.ttl, 0.8, 1.6);
            break;
        case FaultKind::Partition:
            e.length = draw.scaled(s.ttl, 1.0, 2.0);
            break;
        case FaultKind::Restart:  // down for less than a lease: the lock comes back empty
            e.length = draw.scaled(s.ttl, 0.02, 0.15);
            e.nodes = {draw.below(s.nodes)};
            break;
        case FaultKind::Failover:  // replication held back this long, then the promotion
            e.length = draw.scaled(s.ttl, 0.3, 0.8);
            e.nodes = {draw.below(s.nodes)};
            break;
        case FaultKind::Clock:  // expiry on a minority jumps past every lease
            e.magnitude = draw.scaled(s.ttl, 2.0, 4.0);
            e.nodes = draw.minority(s.nodes);
            break;
        case FaultKind::ServerStall:
            e.length = draw.scaled(s.ttl, 1.2, 2.5);
            e.nodes = {draw.below(s.nodes)};
            break;
    }
    return e;
}

}  // namespace

std::vector<FaultEvent> planFaults(const FaultPlanShape& shape) {
    std::vector<FaultEvent> plan;
    if (shape.kinds.empty()) return plan;
    Draw draw(shape.seed);
    milliseconds t = draw.scaled(shape.ttl, 0.5, 1.0);
    // Rotate through the kinds in a seeded order, so a short run still sees each of them.
    auto next = static_cast<std::size_t>(draw.below(static_cast<int>(shape.kinds.size())));
    while (t < shape.duration - shape.ttl) {
        FaultEvent e = drawEvent(shape.kinds[next % shape.kinds.size()], shape, draw);
        ++next;
        e.at = t;
        plan.push_back(e);
        t += e.length + draw.scaled(shape.ttl, 0.5, 1.2);
    }
    return plan;
}

}  // namespace lockscope::torture
