#include <gtest/gtest.h>

#include "lockscope/endpoint.h"
#include "lockscope/errors.h"

using lockscope::Endpoint;
using lockscope::ErrorKind;
using lockscope::parseEndpoint;

TEST(Endpoint, ParsesFullRedisUrl) {
    Endpoint e = parseEndpoint("redis://ops:s%40cret@db.example:6380/3");
    EXPECT_EQ(e.user, "ops");
    EXPECT_EQ(e.password, "s@cret");
    EXPECT_EQ(e.host, "db.example");
    EXPECT_EQ(e.port, 6380);
    EXPECT_EQ(e.db, 3);
    EXPECT_EQ(e.display(), "redis://ops@db.example:6380/3");  // never shows the password
}

TEST(Endpoint, DefaultsPortAndDatabase) {
    Endpoint e = parseEndpoint("redis://localhost");
    EXPECT_EQ(e.host, "localhost");
    EXPECT_EQ(e.port, 6379);
    EXPECT_EQ(e.db, 0);
    EXPECT_TRUE(e.user.empty());
}

TEST(Endpoint, PasswordWithoutUser) {
    Endpoint e = parseEndpoint("redis://:pw@127.0.0.1:7000");
    EXPECT_TRUE(e.user.empty());
    EXPECT_EQ(e.password, "pw");
}

TEST(Endpoint, Ipv6Host) {
    Endpoint e = parseEndpoint("redis://[::1]:7001/2");
    EXPECT_EQ(e.host, "::1");
    EXPECT_EQ(e.port, 7001);
    EXPECT_EQ(e.display(), "redis://[::1]:7001/2");
}

TEST(Endpoint, UnixSocketWithDb) {
    Endpoint e = parseEndpoint("unix:///run/redis/redis.sock?db=4");
    EXPECT_TRUE(e.isUnix());
    EXPECT_EQ(e.unixPath, "/run/redis/redis.sock");
    EXPECT_EQ(e.db, 4);
}

struct BadUrl {
    const char* url;
    const char* mentions;  // the part of the message that names what is wrong
};

void PrintTo(const BadUrl& bad, std::ostream* os) {
    *os << '"' << bad.url << '"';
}

class EndpointRejects : public ::testing::TestWithParam<BadUrl> {};

TEST_P(EndpointRejects, WithAMessageNamingTheBadPart) {
    try {
        parseEndpoint(GetParam().url);
        FAIL() << "accepted " << GetParam().url;
    } catch (const lockscope::InvalidArgumentError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find(GetParam().mentions), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << "password leaked";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, EndpointRejects,
    ::testing::Values(
        BadUrl{"", "empty"}, BadUrl{"localhost:6379", "missing scheme"},
        BadUrl{"http://localhost", "unknown scheme"}, BadUrl{"rediss://:1", "host is empty"},
        BadUrl{"rediss://u:hunter2@h:0", "port"}, BadUrl{"redis://:6379", "host is empty"},
        BadUrl{"redis://h:0", "port"}, BadUrl{"redis://h:65536", "port"},
        BadUrl{"redis://h:abc", "port"}, BadUrl{"redis://h:", "port is empty"},
        BadUrl{"redis://h/x", "database"}, BadUrl{"redis://h/-1", "database"},
        BadUrl{"redis://u:hunter2@h:99999", "port"}, BadUrl{"redis://u:%zz@h", "%-escape"},
        BadUrl{"redis://u:%4@h", "%-escape"}, BadUrl{"redis://[::1", "']'"},
        BadUrl{"redis://[::1]x", "after the IPv6"}, BadUrl{"unix://relative.sock", "absolute"},
        BadUrl{"unix:///s?x=1", "db=N"}, BadUrl{"redis://h\x01st", "control"},
        BadUrl{"redis://h st", "host contains"}));

TEST(Endpoint, RedissTurnsTlsOnAndShowsTheScheme) {
    Endpoint e = parseEndpoint("rediss://ops:s3cret@cache.example.com:6380/3");
    EXPECT_TRUE(e.tls.enabled);
    EXPECT_FALSE(e.tls.insecure);  // verified by default
    EXPECT_EQ(e.host, "cache.example.com");
    EXPECT_EQ(e.port, 6380);
    EXPECT_EQ(e.db, 3);
    EXPECT_EQ(e.password, "s3cret");
    EXPECT_EQ(e.display(), "rediss://ops@cache.example.com:6380/3");
    EXPECT_FALSE(parseEndpoint("redis://h").tls.enabled);
}

TEST(Endpoint, RejectsHugeAndBinaryInput) {
    EXPECT_THROW(parseEndpoint(std::string(10000, 'a')), lockscope::InvalidArgumentError);
    std::string binary("redis://\xff\xfe\x00h", 12);
    EXPECT_THROW(parseEndpoint(binary), lockscope::InvalidArgumentError);
}
