// LockScope's own connections file: what it writes it reads back, and it never holds a secret.
#include <gtest/gtest.h>

#include "lockscope/fleet/connection_export.h"
#include "lockscope/fleet/connection_import.h"

using namespace lockscope;
using namespace lockscope::fleet;

namespace {

std::vector<PortableConnection> sample() {
    PortableConnection plain;
    plain.name = "orders";
    plain.group = "prod";
    plain.endpoint.host = "cache.prod";
    plain.endpoint.port = 6380;
    plain.endpoint.db = 4;
    plain.endpoint.user = "ops";
    plain.endpoint.tls.enabled = true;
    plain.endpoint.tls.caFile = "/etc/ssl/prod-ca.pem";
    plain.endpoint.tls.serverName = "cache";
    plain.readOnly = true;
    plain.patterns = {"lock:*", "job-lock:*"};
    plain.password = "data-secret";

    PortableConnection ha;
    ha.name = "queue";
    ha.topology = Topology::Sentinel;
    ha.sentinels = {{"s1", 26379}, {"s2", 26380}};
    ha.sentinelService = "mymaster";
    ha.sentinelUser = "watcher";
    ha.sentinelPassword = "sentinel-secret";
    ha.endpoint.host = "s1";
    ha.endpoint.port = 26379;
    ha.endpoint.password = "also-secret";
    return {plain, ha};
}

}  // namespace

TEST(ConnectionExport, NeverWritesASecret) {
    auto text = exportConnections(sample());
    for (const char* secret : {"data-secret", "sentinel-secret", "also-secret"})
        EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in\n" << text;
}

TEST(ConnectionExport, ReadsBackWhatItWrote) {
    auto report = importConnections(exportConnections(sample()));
    EXPECT_EQ(report.format, ImportFormat::LockScope);
    ASSERT_EQ(report.entries.size(), 2U);
    ASSERT_EQ(report.count(EntryStatus::Imported), 2U) << report.entries[0].notes.size();
    const auto& plain = *report.entries[0].connection;
    EXPECT_EQ(plain.name, "orders");
    EXPECT_EQ(plain.group, "prod");
    EXPECT_EQ(plain.endpoint.host, "cache.prod");
    EXPECT_EQ(plain.endpoint.port, 6380);
    EXPECT_EQ(plain.endpoint.db, 4);
    EXPECT_EQ(plain.endpoint.user, "ops");
    EXPECT_TRUE(plain.endpoint.tls.enabled);
    EXPECT_EQ(plain.endpoint.tls.caFile, "/etc/ssl/prod-ca.pem");
    EXPECT_EQ(plain.endpoint.tls.serverName, "cache");
    EXPECT_TRUE(plain.readOnly);
    EXPECT_EQ(plain.patterns, (std::vector<std::string>{"lock:*", "job-lock:*"}));
    EXPECT_TRUE(plain.password.empty());

    const auto& ha = *report.entries[1].connection;
    EXPECT_EQ(ha.topology, Topology::Sentinel);
    EXPECT_EQ(ha.sentinels, (std::vector<SentinelAddress>{{"s1", 26379}, {"s2", 26380}}));
    EXPECT_EQ(ha.sentinelService, "mymaster");
    EXPECT_EQ(ha.sentinelUser, "watcher");
}
