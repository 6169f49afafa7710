#pragma once
// The real SQLite FencedStore (the foundation's) behind the simulator's FencedResource.

#include "lockscope/fenced_store.h"
#include "lockscope/sim/fenced_resource.h"

namespace lockscope::sim {

class LiveFencedResource final : public FencedResource {
  public:
    explicit LiveFencedResource(FencedStore& store) : store_(store) {}
    bool write(std::string_view resource, std::string_view body, std::int64_t fence) override {
        return store_.write(resource, body, fence).accepted();
    }
    bool claimOnce(std::string_view key) override { return store_.claimOnce(key); }

  private:
    FencedStore& store_;
};

}  // namespace lockscope::sim
