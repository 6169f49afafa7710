// lockscope-cli exporter: Prometheus metrics of the locks on the servers, until interrupted.
#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <thread>

#include "cli_command.h"
#include "connection_flags.h"
#include "lockscope/errors.h"
#include "lockscope/exporter/lock_exporter.h"

namespace lockscope::cli {
namespace {

using namespace std::chrono_literals;
volatile std::sig_atomic_t stopRequested = 0;

// /scrape?target=…: the allow-list (patterns and a targets file), the credentials file and
// when an unscraped target is dropped.
exporter::ScrapeTargetOptions scrapeTargetOptions(const Arguments& args) {
    exporter::ScrapeTargetOptions t;
    try {
        for (const auto& pattern : args.values("--allow-target")) t.allowList.allow(pattern);
        if (auto file = args.value("--targets-file")) t.allowList.allowFromFile(*file);
        if (auto file = args.value("--target-credentials"))
            t.credentials = fleet::TargetCredentials::fromFile(*file);
    } catch (const InvalidArgumentError& e) {
        throw UsageError(e.what());
    }
    if (auto n = args.value("--drop-after"))
        t.dropAfterMissed = static_cast<int>(parseNumberFlag("--drop-after", *n, 1, 1000));
    if (auto n = args.value("--max-targets"))
        t.maxTargets = static_cast<std::size_t>(parseNumberFlag("--max-targets", *n, 1, 10000));
    return t;
}

// A watch thread per /scrape target would each get a malloc arena of its own (up to 8 per
// core), each holding the memory its censuses freed (issue 37: the exporter's memory on 1M
// locks; figures in the README). Set before any thread starts.
// A fixed mmap threshold keeps the reads' large passing buffers (a batch's records and
// replies, a census's text) out of the heap: with glibc's rising threshold they were carved
// from it among the table's records, and the holes they left held about 40 bytes a lock
// (200k locks: 510 bytes a lock resident, 472 with these; MALLOC_ARENA_MAX made no
// difference). A fixed trim threshold hands the heap's free top back.
void limitMallocArenas() {
    // NOLINTBEGIN(concurrency-mt-unsafe): no thread has started yet
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    // NOLINTEND(concurrency-mt-unsafe)
}

int runExporter(const Arguments& args) {
    limitMallocArenas();
    InspectorFlags flags = parseInspectorFlags(args);
    exporter::ExporterOptions o;
    o.targets = scrapeTargetOptions(args);
    // Only /scrape targets when no server is named and targets are allowed.
    const bool named = args.has("-u") || args.has("-h") || args.has("-p");
    if (named || o.targets.allowList.empty()) o.instances = flags.endpoints;
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
    std::printf("serving http://%s/metrics (port %d)%s; Ctrl-C stops\n", o.listen.c_str(),
                lockExporter.port(),
                o.targets.allowList.empty() ? "" : " and /scrape?target= for allowed targets");
    std::fflush(stdout);
    std::signal(SIGINT, [](int) { stopRequested = 1; });
    std::signal(SIGTERM, [](int) { stopRequested = 1; });
    while (!stopRequested) std::this_thread::sleep_for(200ms);
    return kOk;
}

Registration exporterCommand(
    {"exporter",
     "exporter --listen 127.0.0.1:9471 [--interval 15s] [--key-labels GLOB] "
     "[--allow-target GLOB] [--targets-file FILE] [--target-credentials FILE]",
     "Serve Prometheus metrics of the locks (counts per kind, without TTL, age and TTL "
     "histograms, handoffs, renewals, findings, up) on /metrics, from a census every interval "
     "of what a watch of each server knows (within --max-load, default 5% of a server core); "
     "per-key series only for keys matching --key-labels. With --allow-target or --targets-file, "
     "also /scrape?target=redis://host:port (Prometheus's multi-target convention): an allowed "
     "target is watched from its first scrape (lockscope_up 0 until its first census), with "
     "its own load budget, and dropped after --drop-after intervals unscraped; any other "
     "target gets 403 and is never dialled.",
     {{"--listen", "HOST:PORT", "where to serve /metrics (default 127.0.0.1:9471)", "Exporter"},
      {"--interval", "DURATION", "time between censuses, e.g. 15s (default)", "Exporter"},
      {"--key-labels", "GLOB", "per-key series for these keys (repeatable, at most 100)",
       "Exporter"},
      {"--allow-target", "GLOB",
       "targets /scrape may watch, e.g. 'redis://10.0.*:6379' (repeatable; fnmatch)", "Exporter"},
      {"--targets-file", "FILE", "allowed target patterns, one per line ('#' comments)",
       "Exporter"},
      {"--target-credentials", "FILE",
       "JSON {pattern: {user, password, tls}} for /scrape targets (mode 600)", "Exporter"},
      {"--drop-after", "N", "drop a /scrape target after N intervals unscraped (default 4)",
       "Exporter"},
      {"--max-targets", "N", "/scrape targets watched at once (default 1000)", "Exporter"}},
     true,
     "",
     runExporter});

}  // namespace
}  // namespace lockscope::cli
