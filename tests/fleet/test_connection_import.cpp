// Files in the shapes the tools write, with the field names read from their sources:
// RedisInsight's export (redisinsight/api database-import and the ExportDatabase model),
// Another Redis Desktop Manager's connections.ano (base64 of its connection list), RESP.app's
// connections.json (qredisclient's ConnectionConfig keys) and a list of URLs. The tools
// themselves are not packaged here, so the files are written by hand in their shapes.
#include <gtest/gtest.h>

#include <openssl/evp.h>

#include <string>

#include "lockscope/errors.h"
#include "lockscope/fleet/connection_import.h"

using namespace lockscope;
using namespace lockscope::fleet;

namespace {

std::string base64(const std::string& text) {
    std::string out(4 * ((text.size() + 2) / 3) + 1, '\0');
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(text.data()),
                            static_cast<int>(text.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

const PortableConnection& connectionAt(const ImportReport& report, std::size_t i) {
    EXPECT_TRUE(report.entries.at(i).connection.has_value())
        << (report.entries.at(i).notes.empty() ? "" : report.entries.at(i).notes.front());
    return *report.entries.at(i).connection;
}

bool notesMention(const ImportEntry& entry, const std::string& text) {
    for (const auto& n : entry.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(ConnectionImport, ReadsARedisInsightExportWithEmbeddedCertificatesAndSentinel) {
    const std::string file = R"([
      {"id": "0b6f", "host": "cache.prod.internal", "port": 6380, "name": "orders cache",
       "db": 2, "username": "ops", "password": "s3cret", "connectionType": "STANDALONE",
       "tls": true, "tlsServername": "cache.prod", "verifyServerCert": true,
       "caCert": {"name": "prod CA", "certificate": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"},
       "clientCert": {"name": "ops", "certificate": "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n",
                      "key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"},
       "lastConnection": "2026-11-30T10:00:00.000Z", "modules": []},
      {"id": "1c2d", "host": "10.1.0.5", "port": 26379, "name": "queue via sentinel",
       "username": "sentinel-user", "password": "sentinel-pw", "connectionType": "SENTINEL",
       "sentinelMaster": {"name": "queue-primary", "username": "app", "password": "data-pw"}},
      {"id": "2e3f", "host": "10.1.0.9", "port": 7000, "name": "sessions",
       "connectionType": "CLUSTER"}
    ])";
    auto report = importConnections(file);
    EXPECT_EQ(report.format, ImportFormat::RedisInsight);
    ASSERT_EQ(report.entries.size(), 3U);
    EXPECT_EQ(report.count(EntryStatus::Imported), 3U);

    const auto& cache = connectionAt(report, 0);
    EXPECT_EQ(cache.name, "orders cache");
    EXPECT_EQ(cache.endpoint.host, "cache.prod.internal");
    EXPECT_EQ(cache.endpoint.port, 6380);
    EXPECT_EQ(cache.endpoint.db, 2);
    EXPECT_EQ(cache.endpoint.user, "ops");
    EXPECT_TRUE(cache.endpoint.password.empty()) << "a secret must never sit in the endpoint";
    EXPECT_EQ(cache.password, "s3cret");
    EXPECT_TRUE(cache.endpoint.tls.enabled);
    EXPECT_FALSE(cache.endpoint.tls.insecure);
    EXPECT_EQ(cache.endpoint.tls.serverName, "cache.prod");
    EXPECT_TRUE(cache.pem.ca.starts_with("-----BEGIN CERTIFICATE-----"));
    EXPECT_TRUE(cache.pem.key.starts_with("-----BEGIN PRIVATE KEY-----"));
    EXPECT_TRUE(cache.endpoint.tls.caFile.empty()) << "embedded PEM is not a path";

    const auto& queue = connectionAt(report, 1);
    EXPECT_EQ(queue.topology, Topology::Sentinel);
    ASSERT_EQ(queue.sentinels.size(), 1U);
    EXPECT_EQ(queue.sentinels[0].host, "10.1.0.5");
    EXPECT_EQ(queue.sentinels[0].port, 26379);
    EXPECT_EQ(queue.sentinelService, "queue-primary");
    // RedisInsight keeps the Sentinel's login at the top and the primary's inside.
    EXPECT_EQ(queue.sentinelUser, "sentinel-user");
    EXPECT_EQ(queue.sentinelPassword, "sentinel-pw");
    EXPECT_EQ(queue.endpoint.user, "app");
    EXPECT_EQ(queue.password, "data-pw");

    EXPECT_EQ(connectionAt(report, 2).topology, Topology::Cluster);
}

TEST(ConnectionImport, ReadsAnAnotherRedisDesktopManagerAnoFile) {
    const std::string list = R"([
      {"host": "127.0.0.1", "port": 6379, "auth": "pw1", "username": "", "name": "local",
       "separator": ":", "cluster": false, "connectionReadOnly": true, "key": "1701", "order": 0},
      {"host": "bastion-side.internal", "port": 6379, "auth": "", "name": "behind ssh",
       "sshOptions": {"host": "bastion.example", "port": 22, "username": "me", "password": "",
                      "privatekey": "/home/me/.ssh/id_ed25519", "passphrase": "", "timeout": 30},
       "key": "1702", "order": 1},
      {"host": "10.2.0.1", "port": 26379, "auth": "sentinel-pw", "name": "ha",
       "sentinelOptions": {"masterName": "mymaster", "nodePassword": "node-pw"},
       "key": "1703", "order": 2},
      {"host": "10.3.0.1", "port": 6380, "auth": "", "name": "tls",
       "sslOptions": {"key": "/etc/redis/client.key", "cert": "/etc/redis/client.crt",
                      "ca": "/etc/redis/ca.crt", "servername": "redis.internal"},
       "key": "1704", "order": 3},
      {"host": "10.4.0.1", "port": 7001, "name": "cluster", "cluster": true, "key": "1705"}
    ])";
    auto report = importConnections(base64(list));
    EXPECT_EQ(report.format, ImportFormat::AnotherRedisDesktopManager);
    ASSERT_EQ(report.entries.size(), 5U);

    const auto& local = connectionAt(report, 0);
    EXPECT_TRUE(local.readOnly);
    EXPECT_EQ(local.password, "pw1");
    EXPECT_EQ(report.entries[0].status, EntryStatus::Imported);

    // The SSH tunnel is not carried over, and the entry says so.
    EXPECT_EQ(report.entries[1].status, EntryStatus::ImportedWithNotes);
    EXPECT_TRUE(notesMention(report.entries[1], "SSH tunnel via bastion.example"));

    const auto& ha = connectionAt(report, 2);
    EXPECT_EQ(ha.topology, Topology::Sentinel);
    EXPECT_EQ(ha.sentinelService, "mymaster");
    EXPECT_EQ(ha.sentinelPassword, "sentinel-pw");
    EXPECT_EQ(ha.password, "node-pw");

    const auto& tls = connectionAt(report, 3);
    EXPECT_TRUE(tls.endpoint.tls.enabled);
    EXPECT_EQ(tls.endpoint.tls.caFile, "/etc/redis/ca.crt");
    EXPECT_EQ(tls.endpoint.tls.certFile, "/etc/redis/client.crt");
    EXPECT_EQ(tls.endpoint.tls.keyFile, "/etc/redis/client.key");
    EXPECT_EQ(tls.endpoint.tls.serverName, "redis.internal");

    EXPECT_EQ(connectionAt(report, 4).topology, Topology::Cluster);
}

TEST(ConnectionImport, ReadsRespAppConnectionsWithGroupsAndUnverifiedTls) {
    const std::string file = R"([
      {"name": "azure cache", "host": "x.redis.cache.windows.net", "port": 6380,
       "auth": "key==", "ssl": true, "ssl_ca_cert_path": "", "ssl_local_cert_path": "",
       "ssl_private_key_path": "", "ssl_ignore_all_errors": true, "keys_pattern": "*",
       "namespace_separator": ":", "timeout_connect": 60000, "timeout_execute": 60000,
       "ssh_port": 22},
      {"name": "staging", "connections": [
        {"name": "jobs", "host": "jobs.staging", "port": 6379, "auth": "",
         "namespace_separator": ":"},
        {"name": "cache", "host": "cache.staging", "port": "6379"}]}
    ])";
    auto report = importConnections(file);
    EXPECT_EQ(report.format, ImportFormat::RespApp);
    ASSERT_EQ(report.entries.size(), 3U);
    const auto& azure = connectionAt(report, 0);
    EXPECT_TRUE(azure.endpoint.tls.enabled);
    EXPECT_TRUE(azure.endpoint.tls.insecure);
    EXPECT_TRUE(notesMention(report.entries[0], "did not verify"));
    EXPECT_EQ(azure.password, "key==");
    EXPECT_EQ(connectionAt(report, 1).group, "staging");
    EXPECT_EQ(connectionAt(report, 2).group, "staging");
    EXPECT_EQ(connectionAt(report, 2).endpoint.port, 6379) << "a port written as text is read";
    EXPECT_TRUE(connectionAt(report, 0).group.empty());
}

TEST(ConnectionImport, ReadsAUrlListKeepingPasswordsApartAndFailingBadLinesAlone) {
    const std::string file =
        "# production\n"
        "redis://ops:p%40ss@cache.prod:6379/3\n"
        "\n"
        "rediss://queue.prod:6380\n"
        "redis://bad host:6379\n"
        "redis-sentinel://s1:26379,s2:26379/1?sentinel-password=spw#mymaster\n"
        "  redis://127.0.0.1:7000  \n";
    auto report = importConnections(file);
    EXPECT_EQ(report.format, ImportFormat::UrlList);
    ASSERT_EQ(report.entries.size(), 5U);
    const auto& cache = connectionAt(report, 0);
    EXPECT_EQ(cache.endpoint.user, "ops");
    EXPECT_EQ(cache.password, "p@ss");
    EXPECT_TRUE(cache.endpoint.password.empty());
    EXPECT_EQ(cache.endpoint.db, 3);
    EXPECT_TRUE(connectionAt(report, 1).endpoint.tls.enabled);

    const auto& bad = report.entries[2];
    EXPECT_EQ(bad.status, EntryStatus::Failed);
    EXPECT_EQ(bad.position, 5U) << "a failed line is named by its line number";
    EXPECT_TRUE(notesMention(bad, "line 5"));

    const auto& sentinel = connectionAt(report, 3);
    EXPECT_EQ(sentinel.topology, Topology::Sentinel);
    EXPECT_EQ(sentinel.sentinels.size(), 2U);
    EXPECT_EQ(sentinel.sentinelService, "mymaster");
    EXPECT_EQ(sentinel.sentinelPassword, "spw");
    EXPECT_EQ(connectionAt(report, 4).endpoint.port, 7000);
    EXPECT_EQ(report.count(EntryStatus::Imported), 4U);
}

TEST(ConnectionImport, NumbersDuplicateNamesAndSaysSo) {
    auto report =
        importConnections(R"([{"name": "cache", "host": "a"}, {"name": "cache", "host": "b"},
                                        {"name": "cache", "host": "c"}])");
    EXPECT_EQ(connectionAt(report, 0).name, "cache");
    EXPECT_EQ(connectionAt(report, 1).name, "cache (2)");
    EXPECT_EQ(connectionAt(report, 2).name, "cache (3)");
    EXPECT_TRUE(notesMention(report.entries[1], "also named \"cache\""));
}

TEST(ConnectionImport, TenThousandEntriesImportAndOneMoreIsRefusedWhole) {
    std::string list = "[";
    for (int i = 0; i < 10'000; ++i)
        list += std::string(i ? "," : "") + R"({"host": "h)" + std::to_string(i) +
                R"(", "port": 6379, "name": "n)" + std::to_string(i % 5000) + "\"}";
    auto report = importConnections(list + "]");
    EXPECT_EQ(report.entries.size(), 10'000U);
    EXPECT_EQ(report.count(EntryStatus::Failed), 0U);
    EXPECT_EQ(report.count(EntryStatus::ImportedWithNotes), 5'000U) << "duplicate names noted";
    try {
        importConnections(list + R"(,{"host": "one-too-many"}])");
        FAIL() << "10,001 entries must be refused whole";
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("more than 10000"), std::string::npos) << e.what();
    }
}
