// /scrape?target=… (Prometheus's multi-target convention) against real redis-servers: an
// allowed target is watched from its first scrape, which answers at once; a target outside
// the allow-list is refused and never dialled; credentials come from the file only; an
// unscraped target is dropped with its connections. Hostile use: test_exporter_scrape_hostile.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

#include "lockscope/errors.h"
#include "redis_fixture.h"
#include "scrape_test_support.h"

using namespace lockscope;
using namespace lockscope::exporter;
using namespace lockscope::testing;
using namespace std::chrono_literals;

TEST(ScrapeTarget, AnAllowedTargetIsWatchedFromItsFirstScrapeWhichAnswersAtOnce) {
    LocalRedisServer watched(LocalRedisServerOptions{.configLines = {"enable-debug-command yes"}});
    LocalRedisServer named;
    writeLocks(watched.endpoint(), 20);
    // Keys the first scan must walk past: it takes a moment, the first scrape does not.
    Connection::open(watched.endpoint()).command({"DEBUG", "POPULATE", "300000", "other"});
    writeLocks(named.endpoint(), 3);
    const std::string target = targetOf(watched.port());
    ExporterOptions o = scrapeOnlyOptions({target});
    o.instances = {named.endpoint()};  // -u: served on /metrics, as before
    o.scan.maxLoad = 0.3;
    auto exporter = started(o);

    HttpReply first = httpGet(exporter->port(), scrapePath(target));
    EXPECT_EQ(first.status, 200);
    EXPECT_LT(first.took, 1000ms);
    EXPECT_TRUE(contains(first.body, upSeries(target) + " 0")) << first.body;
    EXPECT_TRUE(contains(first.body, "reason=\"first census in progress\"")) << first.body;
    EXPECT_FALSE(contains(first.body, "lockscope_locks{")) << "no half census is shown";

    ASSERT_TRUE(waitFor([&] { return isUp(exporter->port(), target); }, 30s));
    HttpReply later = httpGet(exporter->port(), scrapePath(target));
    EXPECT_EQ(sumOf(later.body, locksOf(target)), 20) << later.body;
    EXPECT_FALSE(contains(later.body, "lockscope_down_reason"));
    EXPECT_FALSE(contains(later.body, named.url())) << "a target's scrape is its metrics only";

    // /metrics: the -u instance and the exporter's own metrics, not the scrape target's.
    exporter->censusOnce();
    HttpReply metrics = httpGet(exporter->port(), "/metrics");
    EXPECT_EQ(metrics.status, 200);
    EXPECT_EQ(sumOf(metrics.body, locksOf(named.url())), 3) << metrics.body;
    EXPECT_FALSE(contains(metrics.body, locksOf(target)));
    EXPECT_TRUE(contains(metrics.body, "\nlockscope_exporter_scrape_targets 1\n"));
    EXPECT_EQ(exporter->scrapeTargets(), std::vector<std::string>{target});
}

TEST(ScrapeTarget, ATargetOutsideTheAllowListGets403AndIsNeverDialled) {
    LocalRedisServer allowed, other;
    Connection observer = Connection::open(other.endpoint());
    const long long before = infoField(observer, "stats", "total_connections_received");
    auto exporter = started(scrapeOnlyOptions({targetOf(allowed.port())}));

    for (const auto& spelling :
         {targetOf(other.port()), "127.0.0.1:" + std::to_string(other.port()),
          "REDIS://127.0.0.1:" + std::to_string(other.port()) + "/"}) {
        HttpReply r = httpGet(exporter->port(), scrapePath(spelling));
        EXPECT_EQ(r.status, 403) << spelling;
        EXPECT_TRUE(contains(r.body, "is not allowed")) << r.body;
    }
    std::this_thread::sleep_for(1500ms);
    EXPECT_EQ(infoField(observer, "stats", "total_connections_received"), before)
        << "the refused server was dialled";
    EXPECT_TRUE(exporter->scrapeTargets().empty());
    EXPECT_TRUE(contains(httpGet(exporter->port(), "/metrics").body,
                         "lockscope_exporter_scrapes_total{answer=\"denied\"} 3"));
}

TEST(ScrapeTarget, CredentialsComeFromTheFileOnly) {
    LocalRedisServer server(LocalRedisServerOptions{.configLines = {"requirepass s3cret"}});
    Endpoint withPassword = server.endpoint();
    withPassword.password = "s3cret";
    writeLocks(withPassword, 4);
    const std::string target = targetOf(server.port());
    TempDir dir;
    const std::string file = dir.path("credentials.json");
    std::ofstream(file) << R"({")" << target << R"(": {"password": "s3cret"}})";
    ::chmod(file.c_str(), 0600);
    ExporterOptions o = scrapeOnlyOptions({target});
    o.targets.credentials = fleet::TargetCredentials::fromFile(file);
    auto exporter = started(o);

    ASSERT_TRUE(waitFor([&] { return isUp(exporter->port(), target); }, 20s));
    EXPECT_EQ(sumOf(httpGet(exporter->port(), scrapePath(target)).body, locksOf(target)), 4);
    HttpReply inQuery = httpGet(
        exporter->port(), scrapePath("redis://:s3cret@127.0.0.1:" + std::to_string(server.port())));
    EXPECT_EQ(inQuery.status, 400);
    EXPECT_FALSE(contains(inQuery.body, "s3cret"));
}

TEST(ScrapeTarget, WithoutACredentialsEntryAPasswordServerIsReportedDownWithAReason) {
    LocalRedisServer server(LocalRedisServerOptions{.configLines = {"requirepass s3cret"}});
    const std::string target = targetOf(server.port());
    auto exporter = started(scrapeOnlyOptions({target}));
    EXPECT_EQ(httpGet(exporter->port(), scrapePath(target)).status, 200);
    ASSERT_TRUE(waitFor(
        [&] {
            return contains(httpGet(exporter->port(), scrapePath(target)).body,
                            "reason=\"unreachable\"");
        },
        10s));
    EXPECT_TRUE(
        contains(httpGet(exporter->port(), scrapePath(target)).body, upSeries(target) + " 0"));
}

TEST(ScrapeTarget, ATargetUnscrapedForItsIntervalsIsDroppedWithItsConnections) {
    LocalRedisServer dropped, kept;
    writeLocks(dropped.endpoint(), 5);
    Connection observer = Connection::open(dropped.endpoint());
    const long long alone = infoField(observer, "clients", "connected_clients");
    ExporterOptions o = scrapeOnlyOptions({"redis://127.0.0.1:*"});
    o.interval = 200ms;
    o.targets.dropAfterMissed = 3;
    auto exporter = started(o);
    const std::string gone = targetOf(dropped.port()), stays = targetOf(kept.port());

    ASSERT_TRUE(waitFor([&] { return isUp(exporter->port(), gone); }, 10s));
    EXPECT_GT(infoField(observer, "clients", "connected_clients"), alone) << "watched";
    // Only `stays` is scraped from here on, every interval.
    ASSERT_EQ(httpGet(exporter->port(), scrapePath(stays)).status, 200);
    std::atomic<bool> stop{false};
    std::thread scraper([&] {
        while (!stop) {
            httpGet(exporter->port(), scrapePath(stays));
            std::this_thread::sleep_for(150ms);
        }
    });
    EXPECT_TRUE(waitFor([&] { return exporter->scrapeTargets().size() == 1; }, 5s));
    stop = true;
    scraper.join();
    EXPECT_EQ(exporter->scrapeTargets(), std::vector<std::string>{stays});
    EXPECT_TRUE(
        waitFor([&] { return infoField(observer, "clients", "connected_clients") == alone; }, 5s))
        << "the dropped target's connections are closed";
    EXPECT_TRUE(contains(httpGet(exporter->port(), "/metrics").body,
                         "lockscope_exporter_scrape_targets_dropped_total 1"));
    // Scraped again, it is watched again from scratch.
    EXPECT_TRUE(contains(httpGet(exporter->port(), scrapePath(gone)).body, "first census"));
}

TEST(ScrapeTarget, TooManyTargetsGet503AndBadOptionsAreRefused) {
    LocalRedisServer a, b;
    ExporterOptions o = scrapeOnlyOptions({"redis://127.0.0.1:*"});
    o.targets.maxTargets = 1;
    auto exporter = started(o);
    EXPECT_EQ(httpGet(exporter->port(), scrapePath(targetOf(a.port()))).status, 200);
    HttpReply full = httpGet(exporter->port(), scrapePath(targetOf(b.port())));
    EXPECT_EQ(full.status, 503);
    EXPECT_TRUE(contains(full.body, "--max-targets")) << full.body;

    ExporterOptions none;
    none.listen = "127.0.0.1:0";
    EXPECT_THROW(LockExporter{none}, InvalidArgumentError) << "no -u and no allowed target";
    ExporterOptions bad = scrapeOnlyOptions({"redis://*"});
    bad.targets.dropAfterMissed = 0;
    EXPECT_THROW(LockExporter{bad}, InvalidArgumentError);
}
