#include "lockscope/sandbox/local_redis_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/errors.h"

namespace lockscope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string makeTempDirectory() {
    std::string pattern = (fs::temp_directory_path() / "lockscope-redis-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw ProcessError("cannot create a temporary directory for redis-server");
    return pattern;
}

bool waitForExit(pid_t pid, std::chrono::milliseconds timeout) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
        int status = 0;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD)) return true;
        std::this_thread::sleep_for(5ms);
    }
    return false;
}

// PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process. Forking
// from whatever thread asked (a Qt pool thread that expires after 30 s idle, a test
// thread) would kill the server with it, so every fork happens on this one thread that
// lives as long as the process.
class SpawnThread {
  public:
    static SpawnThread& instance() {
        static SpawnThread spawner;
        return spawner;
    }

    pid_t run(const std::function<pid_t()>& spawn) {
        std::packaged_task<pid_t()> task(spawn);
        auto result = task.get_future();
        {
            std::lock_guard lock(mutex_);
            tasks_.push_back(std::move(task));
        }
        wake_.notify_one();
        return result.get();
    }

  private:
    SpawnThread() : thread_([this](std::stop_token stop) { loop(stop); }) {}
    ~SpawnThread() {
        thread_.request_stop();
        wake_.notify_one();
    }

    void loop(std::stop_token stop) {
        while (true) {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, stop, [this] { return !tasks_.empty(); });
            if (stop.stop_requested()) return;
            auto task = std::move(tasks_.front());
            tasks_.pop_front();
            lock.unlock();
            task();
        }
    }

    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::deque<std::packaged_task<pid_t()>> tasks_;
    std::jthread thread_;
};

}  // namespace

int findFreePort() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw ProcessError("cannot open a socket to find a free port");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        close(fd);
        throw ProcessError("cannot bind a socket on 127.0.0.1 to find a free port");
    }
    int port = ntohs(addr.sin_port);
    close(fd);
    return port;
}

LocalRedisServer::LocalRedisServer(LocalRedisServerOptions options)
    : options_(std::move(options)), directory_(makeTempDirectory()) {
    // A free port can be taken between our probe and the server's bind: try a few.
    for (int attempt = 0;; ++attempt) {
        port_ = options_.port ? options_.port : findFreePort();
        try {
            start();
            return;
        } catch (const ProcessError&) {
            if (options_.port || attempt >= 4) {
                std::error_code ignored;
                fs::remove_all(directory_, ignored);
                throw;
            }
        }
    }
}

LocalRedisServer::~LocalRedisServer() {
    stop();
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
}

Endpoint LocalRedisServer::endpoint() const {
    Endpoint e;
    e.host = "127.0.0.1";
    e.port = port_;
    if (options_.tls) {
        e.tls.enabled = true;
        e.tls.caFile = options_.tls->caFile;
    }
    return e;
}

void LocalRedisServer::writeConfig() const {
    std::ofstream conf(directory_ + "/redis.conf");
    if (options_.tls) {
        const LocalRedisTls& tls = *options_.tls;
        conf << "port 0\n"
             << "tls-port " << port_ << "\n"
             << "tls-cert-file " << tls.certFile << "\n"
             << "tls-key-file " << tls.keyFile << "\n"
             << "tls-ca-cert-file " << tls.caFile << "\n"
             << "tls-auth-clients " << (tls.requireClientCert ? "yes" : "no") << "\n";
    } else {
        conf << "port " << port_ << "\n";
    }
    conf << "bind 127.0.0.1\n"
         << "dir " << directory_ << "\n"
         << "unixsocket " << unixSocket() << "\n"
         << "unixsocketperm 700\n"
         << "daemonize no\n"
         << "logfile " << directory_ << "/redis.log\n"
         << "save \"\"\n";
    if (options_.persistence)
        conf << "appendonly yes\nappendfsync always\n";
    else
        conf << "appendonly no\n";
    for (const auto& line : options_.configLines) conf << line << "\n";
    if (!conf) throw ProcessError("cannot write " + directory_ + "/redis.conf");
}

void LocalRedisServer::spawn() {
    std::string conf = directory_ + "/redis.conf";
    std::vector<char*> argv{options_.executable.data(), conf.data(), nullptr};
    pid_t pid = SpawnThread::instance().run([&argv] {
        pid_t parent = getpid();
        pid_t child = fork();
        if (child == 0) {
            // Only async-signal-safe calls between fork and exec.
            prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server dies with us, even on a crash
            if (getppid() != parent) _exit(127);
            int devnull = open("/dev/null", O_RDWR);
            if (devnull >= 0) dup2(devnull, 0), dup2(devnull, 1);
            execvp(argv[0], argv.data());
            _exit(127);
        }
        return child;
    });
    if (pid < 0) throw ProcessError("cannot fork to start redis-server");
    pid_ = pid;
}

void LocalRedisServer::start() {
    if (running()) return;
    writeConfig();
    spawn();
    try {
        waitUntilAnswering();
    } catch (...) {
        stop();
        throw;
    }
}

void LocalRedisServer::waitUntilAnswering() {
    auto until = std::chrono::steady_clock::now() + options_.startTimeout;
    ConnectionOptions quick{100ms, 500ms, false};
    while (std::chrono::steady_clock::now() < until) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw ProcessError("redis-server (" + options_.executable +
                               ") exited at start on port " + std::to_string(port_) +
                               (WIFEXITED(status) && WEXITSTATUS(status) == 127
                                    ? ": not found on PATH (install redis-server)"
                                    : ": " + logTail()));
        }
        try {
            // A TLS-only server may want a client certificate: ask on the Unix socket.
            Endpoint local;
            local.unixPath = unixSocket();
            Connection c = Connection::open(options_.tls ? local : endpoint(), quick);
            Reply pong = c.command({"PING"});
            if (pong.text() == "PONG") return;
        } catch (const AuthenticationError&) {
            return;  // answering, just password-protected
        } catch (const ReplyError& e) {
            if (e.code() == ServerErrorCode::NoAuth) return;
        } catch (const Error&) {
        }
        std::this_thread::sleep_for(10ms);
    }
    throw ProcessError("redis-server on port " + std::to_string(port_) + " did not answer within " +
                       std::to_string(options_.startTimeout.count()) + " ms: " + logTail());
}

void LocalRedisServer::stop() {
    if (!running()) return;
    kill(pid_, SIGTERM);
    kill(pid_, SIGCONT);  // a paused server must wake up to handle SIGTERM
    if (!waitForExit(pid_, 5s)) {
        kill(pid_, SIGKILL);
        waitForExit(pid_, 5s);
    }
    pid_ = -1;
}

void LocalRedisServer::restart() {
    stop();
    start();
}

void LocalRedisServer::pause() {
    if (running()) kill(pid_, SIGSTOP);
}

void LocalRedisServer::resume() {
    if (running()) kill(pid_, SIGCONT);
}

std::string LocalRedisServer::logTail() const {
    std::ifstream log(directory_ + "/redis.log");
    std::string line, last;
    while (std::getline(log, line))
        if (!line.empty()) last = line;
    return last.empty() ? "no log output" : last;
}

}  // namespace lockscope
