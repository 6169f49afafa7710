"""redis-py's Lock, the way its users write it: acquire without blocking, then release.
Prints the mean microseconds per acquire+release cycle over N cycles."""
import sys
import time

import redis

port, cycles = int(sys.argv[1]), int(sys.argv[2])
r = redis.Redis(host="127.0.0.1", port=port)
lock = r.lock("bench:redis-py", timeout=30)
for _ in range(200):  # warm up: scripts registered, connection open
    lock.acquire(blocking=False)
    lock.release()
start = time.perf_counter()
for _ in range(cycles):
    if not lock.acquire(blocking=False):
        sys.exit("redis-py lock was not free")
    lock.release()
print((time.perf_counter() - start) / cycles * 1e6)
