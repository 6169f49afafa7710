#pragma once
// Shared by the /scrape tests: real redis-servers, a listener that never answers, an
// exporter with an allow-list, and reading numbers out of an exposition text.

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "http_get.h"
#include "lockscope/connection.h"
#include "lockscope/exporter/lock_exporter.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace lockscope::testing {

inline std::string targetOf(int port) {
    return "redis://127.0.0.1:" + std::to_string(port);
}

inline std::string scrapePath(const std::string& target) {
    return "/scrape?target=" + target;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The sum of every sample whose line starts with `prefix` (a name and the first labels).
inline double sumOf(const std::string& text, const std::string& prefix) {
    double sum = 0;
    std::size_t at = 0;
    while ((at = text.find("\n" + prefix, at)) != std::string::npos) {
        auto end = text.find('\n', at + 1);
        auto line = text.substr(at + 1, end - at - 1);
        sum += std::stod(line.substr(line.rfind(' ') + 1));
        at = end;
    }
    return sum;
}

inline bool waitFor(const std::function<bool()>& done, std::chrono::milliseconds within) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
}

inline long rssKb() {
    std::ifstream status("/proc/self/status");
    std::string word;
    while (status >> word)
        if (word == "VmRSS:") {
            long kb = 0;
            status >> kb;
            return kb;
        }
    return 0;
}

inline long long infoField(Connection& c, const std::string& section, const std::string& field) {
    std::string info(c.command({"INFO", section}).text());
    auto at = info.find(field + ":");
    return at == std::string::npos ? -1 : std::stoll(info.substr(at + field.size() + 1));
}

// A TCP port that accepts connections (the kernel's backlog) and never says a word: a server
// that hangs, as a SIGSTOPped one does.
class SilentListener {
  public:
    SilentListener() {
        fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof addr;
        if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), size) == 0 && listen(fd_, 64) == 0 &&
            getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &size) == 0)
            port_ = ntohs(addr.sin_port);
    }
    ~SilentListener() { close(fd_); }
    SilentListener(const SilentListener&) = delete;
    SilentListener& operator=(const SilentListener&) = delete;
    int port() const { return port_; }

  private:
    int fd_ = -1;
    int port_ = 0;
};

inline exporter::ExporterOptions scrapeOnlyOptions(const std::vector<std::string>& allowed) {
    exporter::ExporterOptions o;
    o.listen = "127.0.0.1:0";
    o.scan.patterns = {"lock:*"};
    o.interval = std::chrono::milliseconds(1000);
    for (const auto& pattern : allowed) o.targets.allowList.allow(pattern);
    return o;
}

// n guide locks lock:{job<i>} with a token and a TTL of ten minutes.
inline void writeLocks(const Endpoint& endpoint, int n) {
    Connection c = Connection::open(endpoint);
    for (int i = 0; i < n; ++i)
        c.command({"SET", "lock:{job" + std::to_string(i) + "}", "0123456789abcdef0123456789abcdef",
                   "PX", "600000"});
}

inline std::string upSeries(const std::string& target) {
    return "lockscope_up{instance=\"" + target + "\"}";
}

inline std::string locksOf(const std::string& target) {
    return "lockscope_locks{instance=\"" + target + "\"";
}

inline bool isUp(int port, const std::string& target) {
    HttpReply r = httpGet(port, scrapePath(target));
    return r.status == 200 && contains(r.body, upSeries(target) + " 1");
}

inline std::unique_ptr<exporter::LockExporter> started(const exporter::ExporterOptions& o) {
    auto e = std::make_unique<exporter::LockExporter>(o);
    e->start();
    return e;
}

}  // namespace lockscope::testing
