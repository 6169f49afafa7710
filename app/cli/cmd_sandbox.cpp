// lockscope-cli sandbox: the embedded default on the command line.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "cli_command.h"
#include "lock_table_text.h"
#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "lockscope/sandbox/demo_workload.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sandbox/tls_certificates.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t interrupted = 0;

// The locks as `list` shows them, doctor findings included, for the first seconds of the demo.
void printLocks(Connection& c) {
    inspect::Scanner scanner(c);
    auto records = scanner.collect();
    inspect::Doctor().annotate(records, inspect::probeServer(c));
    std::sort(records.begin(), records.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
    std::vector<const inspect::LockRecord*> view;
    view.reserve(records.size());
    for (const auto& r : records) view.push_back(&r);
    std::fputs(formatLockTable(view, false, inspect::SteadyClock::now()).c_str(), stdout);
}

// A directory for the sandbox's certificates, removed when the sandbox stops.
struct CertificateDirectory {
    std::string path;
    CertificateDirectory() {
        path = (std::filesystem::temp_directory_path() / "lockscope-tls-XXXXXX").string();
        if (!mkdtemp(path.data())) throw ProcessError("cannot create a directory for certificates");
    }
    ~CertificateDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

int runSandbox(const Arguments& args) {
    int seconds = -1;
    if (auto s = args.value("--for")) {
        try {
            seconds = std::stoi(*s);
        } catch (...) {
            throw UsageError("--for takes a number of seconds");
        }
        if (seconds < 0 || seconds > 86400) throw UsageError("--for takes 0 to 86400 seconds");
    }
    std::signal(SIGINT, [](int) { interrupted = 1; });
    std::signal(SIGTERM, [](int) { interrupted = 1; });
    // --tls: a TLS-only port with a CA made now, like a managed service.
    std::optional<CertificateDirectory> certDir;
    LocalRedisServerOptions options;
    if (args.has("--tls")) {
        certDir.emplace();
        TlsCertificateSet certs = writeTlsCertificates(certDir->path);
        options.tls = LocalRedisTls{certs.serverCert, certs.serverKey, certs.caCert};
    }
    LocalRedisServer server(options);
    DemoWorkload workload(server.endpoint());
    std::printf("sandbox redis-server at %s (pid %d) with the demo workload; Ctrl-C stops it\n",
                server.url().c_str(), server.pid());
    if (options.tls)
        std::printf(
            "TLS only; its CA certificate: %s\n  e.g. lockscope-cli list -u %s --cacert %s\n",
            options.tls->caFile.c_str(), server.url().c_str(), options.tls->caFile.c_str());
    std::fflush(stdout);
    Connection c = Connection::open(server.endpoint());
    for (int tick = 0; !interrupted && (seconds < 0 || tick < seconds); ++tick) {
        std::this_thread::sleep_for(1s);
        if (seconds >= 0) {
            std::printf("locks at t=%ds:\n", tick + 1);
            printLocks(c);
            std::fflush(stdout);
        }
    }
    return kOk;
}

Registration sandbox(
    {"sandbox",
     "sandbox [--for SECONDS] [--tls]",
     "Start a private redis-server with live demo locks and print its URL until interrupted; "
     "with --for, print the locks every second for that long; with --tls, serve TLS only with a "
     "CA made for the run and print the rediss:// URL and the CA's path.",
     {{"--for", "SECONDS", "stop after this many seconds", "Sandbox"},
      {"--tls", "", "TLS only, with a CA made for this run", "Sandbox"}},
     false,
     "",
     runSandbox});

}  // namespace
}  // namespace lockscope::cli
