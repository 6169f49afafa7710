#!/usr/bin/python3
"""The script a user would write with redis-py's RedisCluster to annotate every lock of a
cluster: scan_iter over every primary (MATCH lock:*, COUNT 1000), then a cluster pipeline per
1000 keys with PTTL + GET + the fence GET of each key (redis-py sends each node its part).
Prints the lock count and the elapsed seconds as "<count> <seconds>"."""
import sys
import time

from redis.cluster import RedisCluster


def annotate(client: RedisCluster, keys: list) -> int:
    pipe = client.pipeline()
    for key in keys:
        pipe.pttl(key)
        pipe.get(key)
        pipe.get(b"fence:" + key[len(b"lock:"):])
    replies = pipe.execute()
    return sum(1 for i in range(len(keys)) if replies[3 * i] != -2)


def main() -> None:
    client = RedisCluster(host="127.0.0.1", port=int(sys.argv[1]))
    start = time.monotonic()
    count = 0
    batch = []
    for key in client.scan_iter(match="lock:*", count=1000):
        batch.append(key)
        if len(batch) >= 1000:
            count += annotate(client, batch)
            batch = []
    if batch:
        count += annotate(client, batch)
    print(count, time.monotonic() - start)


if __name__ == "__main__":
    main()
