#include "inspect/formats/sidekiq_release.h"

#include <algorithm>
#include <map>

#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect::formats {

std::vector<SidekiqSlotCall> planSidekiqRelease(std::string_view digest, bool clusterSlots) {
    const std::string d(digest);
    const std::string locked = d + ":LOCKED", queued = d + ":QUEUED";
    // LOCKED first: a call that compares names it as KEYS[1].
    const std::vector<std::pair<std::string, std::string>> keys{
        {locked, "del"},
        {d, "del"},
        {d + ":PRIMED", "del"},
        {d + ":INFO", "del"},
        {"uniquejobs:digests", "zrem"},
        {"uniquejobs:expiring_digests", "zrem"},
        {queued, "wake"}};
    std::map<std::uint16_t, SidekiqSlotCall> bySlot;
    for (const auto& [key, action] : keys) {
        auto& call = bySlot[clusterSlots ? keyHashSlot(key) : 0];
        call.keys.push_back(key);
        call.actions.push_back(action);
    }
    std::vector<SidekiqSlotCall> plan;
    for (auto& [slot, call] : bySlot) {
        call.compares = call.keys.front() == locked;
        plan.push_back(std::move(call));
    }
    const auto holds = [](const SidekiqSlotCall& c, const std::string& key) {
        return std::find(c.keys.begin(), c.keys.end(), key) != c.keys.end();
    };
    // The comparing call first, the waking one last (when they differ).
    std::stable_partition(plan.begin(), plan.end(), [](const auto& c) { return c.compares; });
    std::stable_partition(plan.begin(), plan.end(),
                          [&](const auto& c) { return c.compares || !holds(c, queued); });
    return plan;
}

const Script& sidekiqReleaseScript() {
    static const Script script(R"lua(
local jobs = tonumber(ARGV[3])
if ARGV[2] == '1' then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0} end
  if redis.call('TYPE', KEYS[1]).ok ~= 'hash' or redis.call('HLEN', KEYS[1]) ~= jobs then
    return {0, 0}
  end
  for i = 4, 3 + jobs do
    if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then return {0, 0} end
  end
end
for i = 1, #KEYS do
  local action = ARGV[3 + jobs + i]
  if action == 'zrem' then
    redis.call('ZREM', KEYS[i], ARGV[1])
  else
    redis.call('DEL', KEYS[i])
  end
  if action == 'wake' then
    redis.call('LPUSH', KEYS[i], '1')
    redis.call('PEXPIRE', KEYS[i], 5000)
  end
end
return {1, 0}
)lua");
    return script;
}

std::vector<std::string> sidekiqReleaseArgs(const SidekiqSlotCall& call, std::string_view digest,
                                            const std::vector<std::string>& jobsSeen) {
    std::vector<std::string> args{std::string(digest), call.compares ? "1" : "0",
                                  std::to_string(call.compares ? jobsSeen.size() : 0)};
    if (call.compares) args.insert(args.end(), jobsSeen.begin(), jobsSeen.end());
    args.insert(args.end(), call.actions.begin(), call.actions.end());
    return args;
}

}  // namespace lockscope::inspect::formats
