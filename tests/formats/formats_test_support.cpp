#include "formats_test_support.h"

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "lockscope/inspect/scanner.h"

namespace formats_test {

using lockscope::Connection;

void writeSidekiqDigest(const Send& send, const std::string& digest, const std::string& jid) {
    // sidekiq-unique-jobs lib/sidekiq_unique_jobs/lua/lock.lua: ZADD digests now digest;
    // HSET locked jid now; PEXPIRE digest/locked/info pttl; queue.lua LPUSH queued jid;
    // lock_info: SET info <json>.
    send({"SET", digest, jid});
    send({"ZADD", "uniquejobs:digests", "1764549331.12", digest});
    send({"HSET", digest + ":LOCKED", jid, "1764549331.12"});
    send({"SET", digest + ":INFO", R"({"worker":"SyncJob","queue":"default"})"});
    send({"LPUSH", digest + ":QUEUED", "7c6b5a4f3e2d1c0b9a8f7e6d"});
    for (const std::string& key : {digest, digest + ":LOCKED", digest + ":INFO"})
        send({"PEXPIRE", key, "600000"});
}

void writeEveryFormat(Connection& c) {
    // ShedLock providers/redis/shedlock-provider-redis-spring/.../RedisLockProvider.java:
    // SET "job-lock:<env>:<name>" "ADDED:<iso>@<host>" NX PX lockAtMostFor.
    c.command({"SET", "job-lock:default:nightly-report", "ADDED:2026-12-01T00:35:31.006Z@build-7",
               "NX", "PX", "600000"});
    // spring-integration-redis/.../RedisLockRegistry.java OBTAIN_LOCK_SCRIPT:
    // SET KEYS[1] ARGV[1] PX ARGV[2], KEYS[1] = registryKey + ":" + lockKey, ARGV[1] = clientId
    // (one UUID per registry instance).
    for (const char* key : {"orders:order-17", "orders:order-18"})
        c.command({"SET", key, kClientB, "PX", "60000"});
    // Illuminate/Cache/RedisLock.php acquire(): SET name owner EX seconds NX (owner =
    // Str::random(), 16 characters); SETNX when seconds is 0. name = prefix + key
    // (Bus/UniqueLock.php, Queue/Middleware/WithoutOverlapping.php).
    c.command({"SET", "laravel_database_laravel_cache_laravel_unique_job:App\\Jobs\\SyncOrders:42",
               "aB3dE5gH7jK9mN1p", "EX", "3600", "NX"});
    c.command({"SETNX", "laravel_database_laravel-queue-overlap:App\\Jobs\\Import:tenant-9",
               "Zy8xW7vU6tS5rQ4p"});
    writeSidekiqDigest([&](const std::vector<std::string>& command) {
        std::vector<std::string_view> argv(command.begin(), command.end());
        c.command(argv);
    });
    // RedLock.net RedLockFactory: key "redlock-{0}", SET key Guid NX PX expiry.
    c.command(
        {"SET", "redlock-orders/17", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "NX", "PX", "30000"});
    // pottery/redlock.py: SET "redlock:<key>" str(uuid4()) NX PX auto_release_time (10 s).
    c.command(
        {"SET", "redlock:printer", "7f9c2b1e-1111-4222-8333-444455556666", "NX", "PX", "10000"});
    // celery_once backends/redis.py (older releases): SET key <expiry timestamp> NX EX timeout.
    c.command({"SET", "qo_tasks.mail_to-ann", "1764549391", "NX", "EX", "60"});
    // activejob-uniqueness via redlock-rb: SET key SecureRandom.uuid NX PX ttl.
    c.command({"SET", "activejob_uniqueness:sync_job:0cc175b9c0f1b6a831c399e269772661",
               "9a1f6e0c-8f2b-4c3d-9e4f-5a6b7c8d9e0f", "NX", "PX", "86400000"});
    c.command({"SET", "activejob_uniqueness:sync_job:0cc175b9c0f1b6a831c399e269772661:runtime",
               "1b2c3d4e-8f2b-4c3d-9e4f-5a6b7c8d9e0f", "NX", "PX", "86400000"});
    // Redisson RedissonReadLock.tryLockInnerAsync: hset name mode read; hset name <id>:<tid> 1;
    // set {name}:<id>:<tid>:rwlock_timeout:1 1; pexpire both.
    c.command({"HSET", "stock", "mode", "read", kClientA + ":57", "1", kClientB + ":9", "1"});
    c.command({"SET", "{stock}:" + kClientA + ":57:rwlock_timeout:1", "1", "PX", "30000"});
    c.command({"PEXPIRE", "stock", "30000"});
    // RedissonLock.tryLockInnerAsync: hincrby name <id>:<tid> 1; pexpire name leaseTime.
    // RedissonFairLock: rpush redisson_lock_queue:{name} <waiter>; zadd
    // redisson_lock_timeout:{name}. RedissonFencedLock: incr redisson_lock_token:{name}.
    c.command({"HINCRBY", "ledger", kClientA + ":1", "1"});
    c.command({"PEXPIRE", "ledger", "30000"});
    c.command({"RPUSH", "redisson_lock_queue:{ledger}", kClientB + ":2"});
    c.command({"ZADD", "redisson_lock_timeout:{ledger}", "1764549391000", kClientB + ":2"});
    c.command({"SET", "redisson_lock_token:{ledger}", "7"});
}

std::vector<lockscope::inspect::LockRecord> scanEverything(Connection& c) {
    lockscope::inspect::ScanOptions options;
    options.patterns = {"*"};
    lockscope::inspect::Scanner scanner(c, options);
    auto records = scanner.collect();
    std::sort(records.begin(), records.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
    return records;
}

std::string runPython(int port, const std::string& body) {
    char path[] = "/tmp/lockscope-formats-XXXXXX.py";
    int fd = mkstemps(path, 3);
    if (fd < 0) throw std::runtime_error("mkstemps failed");
    close(fd);
    {
        std::ofstream script(path);
        script << "import redis\nr = redis.Redis(host='127.0.0.1', port=" << port << ")\n" << body;
    }
    std::string out;
    FILE* p = popen(("/usr/bin/python3 " + std::string(path) + " 2>&1").c_str(), "r");
    if (!p) throw std::runtime_error("popen failed");
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    int status = pclose(p);
    unlink(path);
    if (status != 0) throw std::runtime_error("python failed: " + out);
    return out;
}

}  // namespace formats_test
