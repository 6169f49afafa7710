#include "redis_fixture.h"

#include <cstdlib>
#include <filesystem>

namespace lockscope::testing {

void RedisTest::SetUp() {
    server_ = std::make_unique<LocalRedisServer>(serverOptions());
}

void RedisTest::TearDown() {
    observer_.reset();
    server_.reset();
}

Connection& RedisTest::observer() {
    if (!observer_) {
        Endpoint e = endpoint();
        for (const auto& line : serverOptions().configLines)
            if (line.rfind("requirepass ", 0) == 0) e.password = line.substr(12);
        observer_ = std::make_unique<Connection>(Connection::open(e));
    }
    return *observer_;
}

long long RedisTest::keyCount() {
    return observer().command({"DBSIZE"}).integer();
}

TempDir::TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "lockscope-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

}  // namespace lockscope::testing
