// The multi-target exporter's gate: which `?target=` a scrape may name, and the credentials
// the operator gave for it. Files are real files in a temp folder, with real permissions.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "lockscope/errors.h"
#include "lockscope/fleet/scrape_targets.h"

using namespace lockscope;
using namespace lockscope::fleet;

namespace {

std::string refusal(std::string_view target) {
    try {
        parseScrapeTarget(target);
    } catch (const InvalidArgumentError& e) {
        return e.what();
    }
    return "(accepted)";
}

class TempFile {
  public:
    TempFile(const std::string& text, mode_t mode) {
        path_ = std::filesystem::temp_directory_path() /
                ("lockscope-fleet-" + std::to_string(::getpid()) + "-" + std::to_string(next_++));
        std::ofstream(path_) << text;
        ::chmod(path_.c_str(), mode);
    }
    ~TempFile() { std::filesystem::remove(path_); }
    std::string path() const { return path_.string(); }

  private:
    static inline int next_ = 0;
    std::filesystem::path path_;
};

std::string credentialsRefusal(const std::string& text, mode_t mode = 0600) {
    TempFile file(text, mode);
    try {
        TargetCredentials::fromFile(file.path());
    } catch (const InvalidArgumentError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST(ScrapeTargets, OneServerHasOneSpelling) {
    EXPECT_EQ(parseScrapeTarget("redis://Cache.Prod:6379").canonical, "redis://cache.prod:6379");
    EXPECT_EQ(parseScrapeTarget("REDIS://cache.prod").canonical, "redis://cache.prod:6379");
    EXPECT_EQ(parseScrapeTarget("cache.prod:6379").canonical, "redis://cache.prod:6379");
    EXPECT_EQ(parseScrapeTarget("rediss://10.0.0.1:6380/2").canonical, "rediss://10.0.0.1:6380/2");
    EXPECT_TRUE(parseScrapeTarget("rediss://10.0.0.1:6380").endpoint.tls.enabled);
    EXPECT_EQ(parseScrapeTarget("redis://[::1]:7000").canonical, "redis://[::1]:7000");
}

TEST(ScrapeTargets, BadTargetsAreRefusedWithAReason) {
    EXPECT_NE(refusal("").find("empty"), std::string::npos);
    EXPECT_NE(refusal(std::string(600, 'a')).find("longer than 512"), std::string::npos);
    EXPECT_NE(refusal("unix:///run/redis.sock").find("redis:// or rediss://"), std::string::npos);
    EXPECT_NE(refusal("redis-sentinel://s:26379#m").find("redis:// or rediss://"),
              std::string::npos);
    EXPECT_NE(refusal("http://cache:6379").find("redis:// or rediss://"), std::string::npos);
    EXPECT_NE(refusal("redis://ops:pw@cache:6379").find("credentials file only"),
              std::string::npos);
    EXPECT_EQ(refusal("redis://ops:pw@cache:6379").find("pw"), std::string::npos);
    EXPECT_NE(refusal("redis://cache:99999").find("65535"), std::string::npos);
    EXPECT_NE(refusal(std::string("redis://ca\0che:1", 16)).find("control"), std::string::npos);
    EXPECT_NE(refusal("redis://evil#.internal:6379").find("host"), std::string::npos);
}

TEST(ScrapeTargets, TheAllowListAdmitsOnlyWhatItsPatternsMatch) {
    TargetAllowList allowed;
    EXPECT_FALSE(allowed.allows(parseScrapeTarget("redis://cache:6379"))) << "empty allows none";
    allowed.allow("redis://10.1.*:6379");
    allowed.allow("*.cache.internal:*");
    EXPECT_TRUE(allowed.allows(parseScrapeTarget("redis://10.1.2.3:6379")));
    EXPECT_FALSE(allowed.allows(parseScrapeTarget("redis://10.1.2.3:6380")));
    EXPECT_FALSE(allowed.allows(parseScrapeTarget("rediss://10.1.2.3:6379"))) << "scheme counts";
    EXPECT_FALSE(allowed.allows(parseScrapeTarget("redis://10.1.2.3:6379/4"))) << "db counts";
    EXPECT_TRUE(allowed.allows(parseScrapeTarget("rediss://a.CACHE.internal:6380")));
    EXPECT_FALSE(allowed.allows(parseScrapeTarget("redis://cache.internal.evil.com:6379")));
    EXPECT_THROW(allowed.allow(""), InvalidArgumentError);
    EXPECT_THROW(allowed.allow("redis://u:p@h:1"), InvalidArgumentError);
}

TEST(ScrapeTargets, ATargetsFileNamesItsBadLine) {
    TempFile good("# prod\nredis://10.2.*:6379\n\n  rediss://q.internal:6380  \n", 0644);
    TargetAllowList allowed;
    allowed.allowFromFile(good.path());
    EXPECT_EQ(allowed.patterns().size(), 2U);
    EXPECT_TRUE(allowed.allows(parseScrapeTarget("rediss://q.internal:6380")));

    TempFile bad("redis://a:1\nredis://u:secret@b:2\n", 0644);
    try {
        TargetAllowList more;
        more.allowFromFile(bad.path());
        FAIL() << "user info in a targets file must be refused";
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find(":2: "), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos);
    }
    EXPECT_THROW(TargetAllowList().allowFromFile("/nonexistent/targets"), InvalidArgumentError);
}

TEST(ScrapeTargets, CredentialsComeFromAPrivateFileExactMatchFirst) {
    TempFile file(R"({
      "redis://10.1.*:6379": {"user": "exporter", "password": "pattern-pw"},
      "redis://10.1.0.7:6379": {"user": "special", "password": "exact-pw"},
      "rediss://*.internal:*": {"password": "tls-pw",
                                "tls": {"ca_file": "/etc/ssl/internal-ca.pem", "server_name": "redis"}}
    })",
                  0600);
    auto credentials = TargetCredentials::fromFile(file.path());
    EXPECT_EQ(credentials.size(), 3U);

    auto exact = parseScrapeTarget("redis://10.1.0.7:6379");
    ASSERT_TRUE(credentials.applyTo(exact));
    EXPECT_EQ(exact.endpoint.user, "special");
    EXPECT_EQ(exact.endpoint.password, "exact-pw");

    auto pattern = parseScrapeTarget("redis://10.1.0.8:6379");
    ASSERT_TRUE(credentials.applyTo(pattern));
    EXPECT_EQ(pattern.endpoint.password, "pattern-pw");

    auto tls = parseScrapeTarget("rediss://q.internal:6380");
    ASSERT_TRUE(credentials.applyTo(tls));
    EXPECT_EQ(tls.endpoint.tls.caFile, "/etc/ssl/internal-ca.pem");
    EXPECT_EQ(tls.endpoint.tls.serverName, "redis");

    auto none = parseScrapeTarget("redis://elsewhere:6379");
    EXPECT_FALSE(credentials.applyTo(none));
    EXPECT_TRUE(none.endpoint.password.empty());
}

TEST(ScrapeTargets, BadCredentialsFilesAreRefusedWithoutShowingAPassword) {
    const std::string ok = R"({"redis://a:1": {"password": "hunter2"}})";
    EXPECT_EQ(credentialsRefusal(ok), "(accepted)");
    EXPECT_NE(credentialsRefusal(ok, 0644).find("chmod 600"), std::string::npos);
    EXPECT_NE(
        credentialsRefusal(R"({"redis://a:1": {"pasword": "hunter2"}})").find("unknown field"),
        std::string::npos);
    EXPECT_NE(
        credentialsRefusal("{\"redis://a:1\": {\"password\": \"hunter2\"").find("not valid JSON"),
        std::string::npos);
    EXPECT_NE(credentialsRefusal(R"(["hunter2"])").find("not a JSON object"), std::string::npos);
    EXPECT_NE(credentialsRefusal(R"({"redis://a:1": {"password": 7}})").find("not text"),
              std::string::npos);
    for (const auto& text :
         {std::string(R"({"redis://a:1": {"pasword": "hunter2"}})"),
          std::string(R"({"redis://u:hunter2@a:1": {}})"), std::string(R"({"x": "hunter2"})")})
        EXPECT_EQ(credentialsRefusal(text).find("hunter2"), std::string::npos) << text;
    EXPECT_NE(credentialsRefusal("", 0600).find("not valid JSON"), std::string::npos);
}
