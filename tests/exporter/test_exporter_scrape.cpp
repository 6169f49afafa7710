// /scrape?target=… (Prometheus's multi-target convention) against real redis-servers: an
// allowed target is watched from its first scrape, which answers at once; a target outside
// the allow-list is refused and never dialled; malformed, huge and hostile queries get a
// clear status and watch nothing; credentials come from the file only; 500 concurrent
// scrapes are all answered with bounded memory; a server that never answers delays no other
// target's scrape; an unscraped target is dropped with its connections.

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

namespace {

std::string upSeries(const std::string& target) {
    return "lockscope_up{instance=\"" + target + "\"}";
}

std::string locksOf(const std::string& target) {
    return "lockscope_locks{instance=\"" + target + "\"";
}

bool isUp(int port, const std::string& target) {
    HttpReply r = httpGet(port, scrapePath(target));
    return r.status == 200 && contains(r.body, upSeries(target) + " 1");
}

std::unique_ptr<LockExporter> started(const ExporterOptions& o) {
    auto e = std::make_unique<LockExporter>(o);
    e->start();
    return e;
}

}  // namespace

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

TEST(ScrapeTarget, MalformedHugeAndHostileQueriesGetAClearStatusAndWatchNothing) {
    LocalRedisServer server;
    const std::string target = targetOf(server.port());
    auto exporter = started(scrapeOnlyOptions({"redis://127.0.0.1:*"}));
    struct Case {
        std::string query;
        int status;
        std::string says;
    };
    const std::vector<Case> cases{
        {"/scrape", 400, "missing the target"},
        {"/scrape?target=", 400, "empty"},
        {"/scrape?other=1", 400, "missing the target"},
        {"/scrape?target=http://127.0.0.1:80", 400, "redis:// or rediss://"},
        {"/scrape?target=unix:///tmp/redis.sock", 400, "redis:// or rediss://"},
        {"/scrape?target=redis://admin:s3cret@127.0.0.1:" + std::to_string(server.port()), 400,
         "credentials file"},
        {"/scrape?target=redis://127.0.0.1:99999", 400, "bad target"},
        {"/scrape?target=%00%ff%fe%01", 400, "control characters"},
        {"/scrape?target=redis://%ff%fe:6379", 400, "bad target"},
        {"/scrape?target=" + target + "&target=" + target, 400, "one target"},
        {"/scrape?target=redis://" + std::string(600, 'a') + ":6379", 400, "longer than"},
        {"/scrape?target=" + std::string(10000, 'a'), 414, "longer than"},
    };
    for (const auto& c : cases) {
        HttpReply r = httpGet(exporter->port(), c.query);
        EXPECT_EQ(r.status, c.status) << c.query.substr(0, 80) << "\n" << r.body;
        EXPECT_TRUE(contains(r.body, c.says)) << c.query.substr(0, 80) << "\n" << r.body;
        EXPECT_FALSE(contains(r.body, "s3cret"));
        EXPECT_LT(r.body.size(), 1000u) << "an error is one line, not an echo";
    }
    // Past civetweb's request limit: refused by the server itself, and nothing else changes.
    HttpReply huge = httpGet(exporter->port(), "/scrape?target=" + std::string(200000, 'a'));
    EXPECT_NE(huge.status, 200);
    EXPECT_TRUE(exporter->scrapeTargets().empty());
    EXPECT_EQ(httpGet(exporter->port(), scrapePath(target)).status, 200) << "still serving";
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

TEST(ScrapeTarget, FiveHundredConcurrentScrapesAreAllAnsweredWithBoundedMemory) {
    LocalRedisServer a, b;
    writeLocks(a.endpoint(), 50);
    writeLocks(b.endpoint(), 50);
    SilentListener silent;
    const std::vector<std::string> targets{targetOf(a.port()), targetOf(b.port()),
                                           targetOf(silent.port()), "redis://10.255.0.1:6379"};
    auto exporter = started(scrapeOnlyOptions({"redis://127.0.0.1:*"}));
    httpGet(exporter->port(), "/metrics");  // the server's own first allocations
    const long rssBefore = rssKb();

    constexpr int kScrapes = 500;
    std::vector<HttpReply> replies(kScrapes);
    std::vector<std::thread> clients;
    clients.reserve(kScrapes);
    for (int i = 0; i < kScrapes; ++i)
        clients.emplace_back([&, i] {
            replies[i] = httpGet(exporter->port(),
                                 scrapePath(targets[std::size_t(i) % targets.size()]), 20s);
        });
    for (auto& t : clients) t.join();
    const long rssAfter = rssKb();

    std::vector<long> took;
    for (int i = 0; i < kScrapes; ++i) {
        const int expected = i % 4 == 3 ? 403 : 200;  // 10.255.0.1 is not allowed
        EXPECT_EQ(replies[i].status, expected) << i;
        took.push_back(replies[i].took.count());
    }
    std::sort(took.begin(), took.end());
    std::printf("500 concurrent scrapes: p50 %ld ms, p99 %ld ms, max %ld ms; RSS %+ld KiB\n",
                took[kScrapes / 2], took[kScrapes * 99 / 100], took.back(), rssAfter - rssBefore);
    EXPECT_LT(took.back(), 10000) << "every scrape answered, none held by a server";
    EXPECT_LT(rssAfter - rssBefore, 64 * 1024) << "memory bounded";
    auto watched = exporter->scrapeTargets();
    EXPECT_EQ(watched.size(), 3u) << "one watch per target, however many scrapes";
}

TEST(ScrapeTarget, AServerThatNeverAnswersDelaysNoOtherTargetsScrape) {
    LocalRedisServer healthy;
    writeLocks(healthy.endpoint(), 5);
    SilentListener silent;
    const std::string good = targetOf(healthy.port()), hung = targetOf(silent.port());
    auto exporter = started(scrapeOnlyOptions({good, hung}));

    HttpReply first = httpGet(exporter->port(), scrapePath(hung));
    EXPECT_EQ(first.status, 200);
    EXPECT_LT(first.took, 1000ms) << "never a hanging scrape";
    EXPECT_TRUE(contains(first.body, upSeries(hung) + " 0"));

    // While the hung target's watch waits on its deadline, the healthy one is scraped.
    std::chrono::milliseconds slowest{0};
    const auto until = std::chrono::steady_clock::now() + 4s;
    bool goodUp = false;
    while (std::chrono::steady_clock::now() < until) {
        HttpReply r = httpGet(exporter->port(), scrapePath(good));
        slowest = std::max(slowest, r.took);
        goodUp = goodUp || contains(r.body, upSeries(good) + " 1");
        httpGet(exporter->port(), scrapePath(hung));
        std::this_thread::sleep_for(50ms);
    }
    EXPECT_LT(slowest, 500ms);
    EXPECT_TRUE(goodUp) << "the healthy target's census came while the other hung";
    EXPECT_EQ(sumOf(httpGet(exporter->port(), scrapePath(good)).body, locksOf(good)), 5);
    ASSERT_TRUE(waitFor(
        [&] {
            return contains(httpGet(exporter->port(), scrapePath(hung)).body,
                            "reason=\"unreachable\"");
        },
        15s));
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
