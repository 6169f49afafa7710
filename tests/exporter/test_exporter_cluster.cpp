// The exporter on a real Redis Cluster: given one node, its census counts the locks of every
// primary (the watch engine watches each), each under its own node label and the instance
// the operator named.
#include <gtest/gtest.h>

#include "cluster_fixture.h"
#include "lockscope/exporter/lock_exporter.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;

// "lock:{rN}" keys, the first whose slot the fixture gave to primary `node`.
std::string keyOnNode(RedisCluster& cluster, std::size_t node) {
    for (int i = 0;; ++i) {
        std::string key = "lock:{r" + std::to_string(i) + "}";
        if (cluster.primaryFor(key) == node) return key;
    }
}

TEST(ExporterCluster, TheCensusCountsTheLocksOfEveryPrimary) {
    RedisCluster cluster;
    for (std::size_t node = 0; node < 3; ++node)
        cluster.connect(node).command({"SET", keyOnNode(cluster, node), "tok", "PX", "600000"});
    exporter::ExporterOptions o;
    o.listen = "127.0.0.1:0";
    o.instances = {cluster.endpoint(0)};
    o.scan.patterns = {"lock:*"};
    o.interval = 3600s;  // the test drives the census
    exporter::LockExporter exporter(o);
    exporter.censusOnce();
    const std::string text = exporter.scrapeText();
    for (std::size_t node = 0; node < 3; ++node) {
        const std::string series = R"(lockscope_locks{instance=")" + cluster.url(0) +
                                   R"(",node=")" + cluster.url(node) + R"(",kind="unknown"} 1)";
        EXPECT_NE(text.find(series), std::string::npos) << series << "\n" << text;
    }
    EXPECT_NE(text.find(R"(lockscope_up{instance=")" + cluster.url(0) + R"("} 1)"),
              std::string::npos)
        << text;
    EXPECT_EQ(exporter.trackedLocks(), 3u);
}

}  // namespace
}  // namespace lockscope::testing
