// An external lock client in any language, run as a child of the worker (in its process
// group, so a pause stops it too) and spoken to in JSON lines over its stdin/stdout:
//   → {"op":"hello","ports":[6380,...],"resource":"torture","ttl_ms":1000}   ← {"ok":true}
//   → {"op":"acquire","wait_ms":2000}     ← {"ok":true,"token":"…","fence":7|null} / {"ok":false}
//   → {"op":"extend"}                     ← {"ok":true|false}
//   → {"op":"release"}                    ← {"ok":true|false}   (false: the lock was gone)
// Any reply {"error":"…"} means the outcome is unknown. The worker writes the resource
// itself with the token and fence the adapter returned.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "lock_client.h"
#include "lockscope/errors.h"

extern char** environ;

namespace lockscope::torture {
namespace {

class AdapterClient : public LockClient {
  public:
    explicit AdapterClient(const WorkerConfig& c) : config_(c) {
        spawn();
        nlohmann::json hello{{"op", "hello"},
                             {"ports", c.ports},
                             {"resource", kTortureLockName},
                             {"ttl_ms", c.ttlMs}};
        auto reply = call(hello, std::chrono::seconds(10));
        if (!reply.value("ok", false)) throw ProcessError("adapter refused hello: " + reply.dump());
    }
    ~AdapterClient() override {
        close(toAdapter_);
        close(fromAdapter_);
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }

    std::optional<Grant> acquire(Clock::time_point until) override {
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        auto reply = call({{"op", "acquire"}, {"wait_ms", std::max<long long>(0, wait.count())}},
                          wait + std::chrono::milliseconds(config_.ttlMs * 2 + 1000));
        if (!reply.value("ok", false)) return std::nullopt;
        Grant grant{reply.value("token", std::string()), std::nullopt};
        if (reply.contains("fence") && reply["fence"].is_number_integer())
            grant.fence = reply["fence"].get<std::int64_t>();
        return grant;
    }
    bool release() override {
        return call({{"op", "release"}}, std::chrono::milliseconds(config_.ttlMs * 2 + 1000))
            .value("ok", false);
    }

  private:
    void spawn() {
        int in[2], out[2];
        if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
            throw ProcessError("adapter: cannot create pipes");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        std::vector<char*> argv;
        for (auto& arg : config_.adapterCommand) argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        int rc = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        close(in[0]);
        close(out[1]);
        toAdapter_ = in[1];
        fromAdapter_ = out[0];
        if (rc != 0) throw ProcessError("adapter: cannot start " + config_.adapterCommand[0]);
    }

    nlohmann::json call(const nlohmann::json& request, std::chrono::milliseconds timeout) {
        std::string line = request.dump() + "\n";
        if (write(toAdapter_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
            throw ProcessError("adapter: it closed its input");
        auto until = Clock::now() + timeout;
        while (true) {
            auto newline = buffer_.find('\n');
            if (newline != std::string::npos) {
                std::string reply = buffer_.substr(0, newline);
                buffer_.erase(0, newline + 1);
                auto j = nlohmann::json::parse(reply, nullptr, false);
                if (!j.is_object())
                    throw ProtocolError("adapter: reply is not a JSON object: " +
                                        reply.substr(0, 80));
                if (j.contains("error"))
                    throw OutcomeUnknownError("adapter: " + j["error"].dump().substr(0, 200));
                return j;
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
            pollfd p{fromAdapter_, POLLIN, 0};
            if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0)
                throw TimeoutError("adapter: no reply to " + request.value("op", "?") + " in time");
            char chunk[4096];
            ssize_t n = read(fromAdapter_, chunk, sizeof chunk);
            if (n <= 0) throw ProcessError("adapter: it exited");
            buffer_.append(chunk, static_cast<std::size_t>(n));
            if (buffer_.size() > (1 << 20)) throw ProtocolError("adapter: a reply over 1 MiB");
        }
    }

    WorkerConfig config_;
    pid_t pid_ = -1;
    int toAdapter_ = -1, fromAdapter_ = -1;
    std::string buffer_;
};

}  // namespace

std::unique_ptr<LockClient> makeAdapterClient(const WorkerConfig& config) {
    return std::make_unique<AdapterClient>(config);
}

}  // namespace lockscope::torture
