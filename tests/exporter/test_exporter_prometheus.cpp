// A real Prometheus (Debian's, /usr/bin/prometheus) scrapes the exporter the way an operator
// would set it up: a job whose static targets are redis:// URLs, rewritten by
// relabel_configs into /scrape?target=… on one exporter. Prometheus's own /api/v1/query must
// then show every target's lockscope_locks with the number of locks its server holds.
// Labelled exporter_prometheus (ctest -L exporter_prometheus); about 15 s.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "redis_fixture.h"
#include "scrape_test_support.h"

using namespace lockscope;
using namespace lockscope::exporter;
using namespace lockscope::testing;
using namespace std::chrono_literals;

namespace {

int freePort() {
    SilentListener probe;  // bound to a free port, closed again at once
    return probe.port();
}

// prometheus as a child process, stopped (SIGTERM, then waited for) at the end.
class PrometheusProcess {
  public:
    PrometheusProcess(const std::string& config, const std::string& dataDir, int port,
                      const std::string& log) {
        pid_ = fork();
        if (pid_ == 0) {
            std::freopen(log.c_str(), "w", stdout);
            std::freopen(log.c_str(), "a", stderr);
            const std::string configFlag = "--config.file=" + config;
            const std::string storageFlag = "--storage.tsdb.path=" + dataDir;
            const std::string listenFlag = "--web.listen-address=127.0.0.1:" + std::to_string(port);
            execlp("prometheus", "prometheus", configFlag.c_str(), storageFlag.c_str(),
                   listenFlag.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
    }
    ~PrometheusProcess() {
        if (pid_ <= 0) return;
        kill(pid_, SIGTERM);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    PrometheusProcess(const PrometheusProcess&) = delete;
    PrometheusProcess& operator=(const PrometheusProcess&) = delete;
    bool started() const { return pid_ > 0; }

  private:
    pid_t pid_ = -1;
};

std::string curl(const std::string& url) {
    std::string out;
    if (FILE* p = popen(("curl -sS --max-time 5 '" + url + "' 2>/dev/null").c_str(), "r")) {
        std::array<char, 4096> buf{};
        while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
        pclose(p);
    }
    return out;
}

// target (the exported instance label) -> sum of lockscope_locks, as Prometheus answers it.
std::map<std::string, double> locksPerTarget(int prometheusPort) {
    std::map<std::string, double> sums;
    auto reply =
        nlohmann::json::parse(curl("http://127.0.0.1:" + std::to_string(prometheusPort) +
                                   "/api/v1/query?query=sum%20by%20(instance)(lockscope_locks)"),
                              nullptr, false);
    if (reply.is_discarded() || reply.value("status", "") != "success") return sums;
    for (const auto& r : reply["data"]["result"])
        sums[r["metric"].value("instance", "")] = std::stod(r["value"][1].get<std::string>());
    return sums;
}

}  // namespace

TEST(ExporterPrometheus, RelabelledStaticTargetsAreEachScrapedThroughScrape) {
    LocalRedisServer a, b, c;
    const std::map<std::string, int> locks{
        {targetOf(a.port()), 3}, {targetOf(b.port()), 5}, {targetOf(c.port()), 7}};
    writeLocks(a.endpoint(), 3);
    writeLocks(b.endpoint(), 5);
    writeLocks(c.endpoint(), 7);
    auto o = scrapeOnlyOptions({"redis://127.0.0.1:*"});
    LockExporter exporter(o);
    exporter.start();

    TempDir dir;
    const int prometheusPort = freePort();
    std::ofstream config(dir.path("prometheus.yml"));
    config << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
           << "scrape_configs:\n  - job_name: lockscope\n    metrics_path: /scrape\n"
           << "    static_configs:\n      - targets:\n";
    for (const auto& [target, n] : locks) config << "          - " << target << "\n";
    // The operator's relabelling (the README's example): the listed URL becomes the target
    // parameter and the instance label, and every scrape goes to the exporter.
    config << "    relabel_configs:\n"
           << "      - source_labels: [__address__]\n        target_label: __param_target\n"
           << "      - source_labels: [__param_target]\n        target_label: instance\n"
           << "      - target_label: __address__\n        replacement: 127.0.0.1:"
           << exporter.port() << "\n";
    config.close();
    PrometheusProcess prometheus(dir.path("prometheus.yml"), dir.path("data"), prometheusPort,
                                 dir.path("prometheus.log"));
    ASSERT_TRUE(prometheus.started());

    std::map<std::string, double> seen;
    const bool all = waitFor(
        [&] {
            seen = locksPerTarget(prometheusPort);
            for (const auto& [target, n] : locks)
                if (!seen.count(target) || seen[target] != n) return false;
            return true;
        },
        45s);
    std::ifstream logFile(dir.path("prometheus.log"));
    const std::string log{std::istreambuf_iterator<char>(logFile), {}};
    EXPECT_TRUE(all) << "Prometheus saw " << seen.size() << " targets; its log:\n"
                     << log.substr(0, 4000);
    for (const auto& [target, n] : locks) EXPECT_EQ(seen[target], n) << target;
    EXPECT_EQ(exporter.scrapeTargets().size(), locks.size());
}
