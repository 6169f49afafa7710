// A worker process: acquire → write "begin" to the resource → work → write "end" →
// release, until its deadline, each step recorded as invoke and ok/fail/info on stdout.

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

#include "lock_client.h"
#include "lockscope/errors.h"
#include "lockscope/torture/torture_run.h"
#include "resource_ledger.h"

namespace lockscope::torture {
namespace {

using namespace std::chrono_literals;

class Worker {
  public:
    explicit Worker(WorkerConfig config)
        : c_(std::move(config)), ledger_(c_.ledgerPath, c_.checkFences) {}

    void run() {
        std::unique_ptr<LockClient> client;
        while (monotonicNs() < c_.deadlineNs) {
            try {
                if (!client) client = makeLockClient(c_);
                round(*client);
            } catch (const InvalidArgumentError&) {
                throw;
            } catch (const Error& e) {
                // The client could not even start (a server down): try again shortly.
                emit(op(OpType::Info, "acquire", e.what()));
                std::this_thread::sleep_for(50ms);
            }
        }
    }

  private:
    Op op(OpType type, std::string f, std::string detail = {}) const {
        Op o;
        o.type = type;
        o.f = std::move(f);
        o.process = c_.worker;
        o.timeNs = monotonicNs() - c_.startNs;
        o.token = grant_.token;
        o.fence = grant_.fence;
        o.round = round_;
        o.detail = std::move(detail);
        return o;
    }
    static void emit(const Op& o) {
        std::string line = toJsonLine(o) + "\n";
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    }

    void round(LockClient& client) {
        grant_ = {};
        emit(op(OpType::Invoke, "acquire"));
        auto until = LockClient::Clock::now() + std::chrono::milliseconds(c_.ttlMs * 2);
        std::optional<Grant> grant;
        try {
            grant = client.acquire(until);
        } catch (const Error& e) {
            emit(op(OpType::Info, "acquire", e.what()));
            client.recover();
            std::this_thread::sleep_for(20ms);
            return;
        }
        if (!grant) {
            emit(op(OpType::Fail, "acquire", "not acquired in time"));
            return;
        }
        ++round_;
        grant_ = *grant;
        emit(op(OpType::Ok, "acquire"));
        // The client checks its lock once, before it starts (as the guide's report job and
        // a Redlock user checking the validity do); a pause inside the work is what the
        // lease cannot see coming.
        if (client.stillHeld()) {
            write("begin");
            std::this_thread::sleep_for(std::chrono::milliseconds(c_.workMs));  // the work
            write("end");
        } else {
            emit(op(OpType::Info, "lost", "the client reports the lock lost before the work"));
        }
        emit(op(OpType::Invoke, "release"));
        try {
            bool released = client.release();
            emit(op(released ? OpType::Ok : OpType::Fail, "release",
                    released ? "" : "the lock was already gone"));
        } catch (const Error& e) {
            emit(op(OpType::Info, "release", e.what()));
            client.recover();
        }
    }

    void write(const char* phase) {
        Op invoke = op(OpType::Invoke, "write");
        invoke.phase = phase;
        emit(invoke);
        Op done = op(OpType::Ok, "write");
        done.phase = phase;
        try {
            bool accepted = ledger_.write(c_.worker, round_, grant_.token, grant_.fence, phase,
                                          monotonicNs() - c_.startNs);
            if (!accepted) {
                done.type = OpType::Fail;
                done.detail = "the resource refused a stale fence";
            }
        } catch (const Error& e) {
            done.type = OpType::Info;
            done.detail = e.what();
        }
        done.timeNs = monotonicNs() - c_.startNs;
        emit(done);
    }

    WorkerConfig c_;
    ResourceLedger ledger_;
    Grant grant_;
    int round_ = 0;
};

}  // namespace

int workerMain(std::string_view configJson) {
    try {
        WorkerConfig config = workerConfigFromJson(configJson);
        // Die with the coordinator, whatever kills it.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (config.parentPid && getppid() != config.parentPid) return 3;
        signal(SIGPIPE, SIG_IGN);
        Worker(std::move(config)).run();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "torture worker: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace lockscope::torture
