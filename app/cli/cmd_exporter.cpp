// lockscope-cli exporter: Prometheus metrics of the locks on the servers, until interrupted.
#include <csignal>
#include <cstdio>
#include <thread>

#include "cli_command.h"
#include "connection_flags.h"
#include "lockscope/exporter/lock_exporter.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t stopRequested = 0;

int runExporter(const Arguments& args) {
    InspectorFlags flags = parseInspectorFlags(args);
    exporter::ExporterOptions o;
    o.instances = flags.endpoints;
    o.connection = connectionOptions(flags, true);  // the exporter only reads
    o.scan = flags.scan;
    if (args.values("--pattern").empty()) o.scan.patterns = exporter::defaultExporterPatterns();
    if (auto listen = args.value("--listen")) o.listen = *listen;
    if (auto interval = args.value("--interval"))
        o.interval = parseDurationFlag("--interval", *interval, std::chrono::milliseconds(1),
                                       std::chrono::hours(24));
    // As for watch: --max-load is the steady-state budget of each server's watch too.
    if (args.value("--max-load")) o.budget = flags.scan.maxLoad;
    o.keyLabelPatterns = args.values("--key-labels");
    exporter::LockExporter lockExporter(o);
    lockExporter.start();
    std::printf("serving http://%s/metrics (port %d); Ctrl-C stops\n", o.listen.c_str(),
                lockExporter.port());
    std::fflush(stdout);
    std::signal(SIGINT, [](int) { stopRequested = 1; });
    std::signal(SIGTERM, [](int) { stopRequested = 1; });
    while (!stopRequested) std::this_thread::sleep_for(200ms);
    return kOk;
}

Registration exporterCommand(
    {"exporter",
     "exporter --listen 127.0.0.1:9471 [--interval 15s] [--key-labels GLOB]",
     "Serve Prometheus metrics of the locks (counts per kind, without TTL, age and TTL "
     "histograms, handoffs, renewals, findings, up) on /metrics, from a census every interval "
     "of what a watch of each server knows (within --max-load, default 5% of a server core); "
     "per-key series only for keys matching --key-labels.",
     {{"--listen", "HOST:PORT", "where to serve /metrics (default 127.0.0.1:9471)", "Exporter"},
      {"--interval", "DURATION", "time between censuses, e.g. 15s (default)", "Exporter"},
      {"--key-labels", "GLOB", "per-key series for these keys (repeatable, at most 100)",
       "Exporter"}},
     true,
     "",
     runExporter});

}  // namespace
}  // namespace lockscope::cli
