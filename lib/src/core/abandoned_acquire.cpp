#include "abandoned_acquire.h"

#include <thread>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"

namespace lockscope::detail {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// One try; returns when the server answered (the key is ours no longer either way).
void releaseOnce(const Endpoint& endpoint, const ConnectionOptions& options, const std::string& key,
                 const std::string& token, const std::string& holderKey, const Script& release) {
    Connection connection = Connection::open(endpoint, options);
    connection.command({"PING"});
    if (holderKey.empty())
        connection.eval(release, {key}, {token});
    else
        connection.eval(release, {key, holderKey}, {token});
}

}  // namespace

void releaseWhenServerAnswers(const Endpoint& endpoint, ConnectionOptions options, std::string key,
                              std::string token, std::string holderKey,
                              std::chrono::milliseconds giveUpAfter) {
    options.connectTimeout = std::min(options.connectTimeout, std::chrono::milliseconds(1000));
    options.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(1000));
    options.stop = {};  // the caller's stop ended the wait, not this clean-up
    options.readOnly = false;
    // A copy of the script: the thread may outlive the static one at process exit.
    Script script = holderKey.empty() ? scripts::release() : scripts::releaseWithHolder();
    std::thread([endpoint, options, key = std::move(key), token = std::move(token),
                 holderKey = std::move(holderKey), giveUpAt = Clock::now() + giveUpAfter,
                 release = std::move(script)] {
        while (Clock::now() < giveUpAt) {
            try {
                releaseOnce(endpoint, options, key, token, holderKey, release);
                return;
            } catch (const IoError&) {
                std::this_thread::sleep_for(100ms);  // still stalled or unreachable
            } catch (...) {
                return;  // refused (ACL...): nothing this thread can change
            }
        }
    }).detach();
}

}  // namespace lockscope::detail
