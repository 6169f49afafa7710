#include "sentinel_fixture.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/errors.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;

// redis-server runs as a Sentinel when started under the name redis-sentinel.
std::string sentinelExecutable(const TempDir& dir) {
    std::string link = dir.path("redis-sentinel");
    if (!std::filesystem::exists(link)) {
        std::string server;
        for (const char* candidate : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
            if (std::filesystem::exists(candidate)) server = candidate;
        if (server.empty()) throw std::runtime_error("redis-server not found for Sentinel");
        std::filesystem::create_symlink(server, link);
    }
    return link;
}

std::string infoField(std::string_view info, std::string_view field) {
    std::string needle = std::string(field) + ":";
    auto at = info.find(needle);
    if (at == std::string_view::npos) return {};
    auto end = info.find('\r', at);
    return std::string(info.substr(at + needle.size(), end - at - needle.size()));
}

template <class Ready>
void waitFor(std::chrono::milliseconds timeout, const std::string& what, Ready ready) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (true) {
        try {
            if (ready()) return;
        } catch (const Error&) {
        }
        if (std::chrono::steady_clock::now() > until)
            throw std::runtime_error("sentinel fixture: timed out waiting for " + what);
        std::this_thread::sleep_for(20ms);
    }
}

// A redis.conf argument in double quotes, so a password with '#', spaces or quotes stays one.
std::string configQuoted(const std::string& value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string percentEncoded(const std::string& value) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : value) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace

SentinelGroup::SentinelGroup(std::string service, std::string sentinelPassword)
    : service_(std::move(service)), sentinelPassword_(std::move(sentinelPassword)) {
    servers_.push_back(std::make_unique<LocalRedisServer>(
        LocalRedisServerOptions{.configLines = {"repl-diskless-sync-delay 0"}}));
    const std::string primaryPort = std::to_string(servers_[0]->port());
    servers_.push_back(std::make_unique<LocalRedisServer>(LocalRedisServerOptions{
        .configLines = {"replicaof 127.0.0.1 " + primaryPort, "repl-diskless-sync-delay 0"}}));
    // The Sentinels learn replicas from the primary's INFO: start them once the replica is in.
    waitFor(10s, "the replica to sync", [&] {
        Connection c = Connection::open(servers_[1]->endpoint());
        return infoField(c.command({"INFO", "replication"}).text(), "master_link_status") == "up";
    });
    const std::string exe = sentinelExecutable(links_);
    for (int i = 0; i < 3; ++i) {
        LocalRedisServerOptions o;
        o.executable = exe;
        o.configLines = {"sentinel monitor " + service_ + " 127.0.0.1 " + primaryPort + " 2",
                         "sentinel down-after-milliseconds " + service_ + " 1000",
                         "sentinel failover-timeout " + service_ + " 5000",
                         "sentinel parallel-syncs " + service_ + " 1"};
        if (!sentinelPassword_.empty()) {
            // Clients and the other Sentinels alike must give it.
            o.configLines.push_back("requirepass " + configQuoted(sentinelPassword_));
            o.configLines.push_back("sentinel sentinel-pass " + configQuoted(sentinelPassword_));
        }
        sentinels_.push_back(std::make_unique<LocalRedisServer>(o));
    }
    for (std::size_t i = 0; i < sentinels_.size(); ++i)
        waitFor(10s, "a Sentinel to see the replica", [&] {
            Connection c = Connection::open(sentinelEndpoint(i));
            return c.command({"SENTINEL", "replicas", service_}).size() == 1;
        });
}

SentinelGroup::~SentinelGroup() {
    sentinels_.clear();  // first, so they do not fail over while the servers stop
}

Endpoint SentinelGroup::sentinelEndpoint(std::size_t i) const {
    Endpoint e = sentinels_.at(i)->endpoint();
    e.password = sentinelPassword_;
    return e;
}

std::string SentinelGroup::url() const {
    std::string out = "redis-sentinel://";
    for (std::size_t i = 0; i < sentinels_.size(); ++i)
        out += (i ? ",127.0.0.1:" : "127.0.0.1:") + std::to_string(sentinels_[i]->port());
    if (!sentinelPassword_.empty())
        out += "?sentinel-password=" + percentEncoded(sentinelPassword_);
    return out + "#" + service_;
}

SentinelTarget SentinelGroup::target() const {
    return parseSentinelUrl(url());
}

int SentinelGroup::primaryIndex() {
    for (std::size_t i = 0; i < servers_.size(); ++i) {
        try {
            Connection c = Connection::open(servers_[i]->endpoint());
            if (c.command({"ROLE"})[0].text() == "master") return static_cast<int>(i);
        } catch (const Error&) {
        }
    }
    return -1;
}

void SentinelGroup::failover() {
    int before = primaryIndex();
    int after = 1 - before;
    Connection s = Connection::open(sentinelEndpoint(0));
    waitFor(10s, "SENTINEL FAILOVER to be accepted", [&] {
        s.command({"SENTINEL", "FAILOVER", service_});
        return true;
    });
    const std::string newPort = std::to_string(servers_[after]->port());
    waitFor(15s, "the failover to complete", [&] {
        if (primaryIndex() != after) return false;
        for (std::size_t i = 0; i < sentinels_.size(); ++i) {
            Connection c = Connection::open(sentinelEndpoint(i));
            Reply addr = c.command({"SENTINEL", "get-master-addr-by-name", service_});
            if (addr.size() != 2 || addr[1].text() != newPort) return false;
        }
        return true;
    });
}

}  // namespace lockscope::testing
