#pragma once
// The guide's fenced resource as the actors see it: a write accepted only with a fence
// higher than the last accepted one, and a once-only claim for side effects (the email
// keyed by date). ModelFencedStore is the in-memory model (a copyable value for
// checkpoints); live mode uses the real SQLite FencedStore (live_fenced_resource.h).

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace lockscope::sim {

class FencedResource {
  public:
    virtual ~FencedResource() = default;
    // true: this write won; false: an equal or newer fence already wrote (stale holder).
    virtual bool write(std::string_view resource, std::string_view body, std::int64_t fence) = 0;
    // true for the first claim of key ever, false after.
    virtual bool claimOnce(std::string_view key) = 0;
};

class ModelFencedStore final : public FencedResource {
  public:
    bool write(std::string_view resource, std::string_view body, std::int64_t fence) override;
    bool claimOnce(std::string_view key) override;

    // A write with no fence check (the unfenced Redlock client): the body changes, the
    // fence stays.
    void overwrite(std::string_view resource, std::string_view body);
    // The next value of a strictly increasing counter for resource (1, 2, ...): a fencing
    // token handed out in the order it is asked for, as a consensus service's would be.
    std::int64_t issueToken(std::string_view resource);
    // The last accepted fence for resource, 0 when nothing was written yet.
    std::int64_t lastFence(std::string_view resource) const;

  private:
    struct Row {
        std::string body;
        std::int64_t fence = 0;
    };
    std::map<std::string, Row, std::less<>> rows_;
    std::set<std::string, std::less<>> claims_;
    std::map<std::string, std::int64_t, std::less<>> tokens_;
};

}  // namespace lockscope::sim
