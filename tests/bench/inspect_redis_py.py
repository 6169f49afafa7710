#!/usr/bin/python3
"""The script a user would write with redis-py to annotate every lock: SCAN count 1000, then
one pipeline per batch with PTTL + GET + the fence GET of each key. Prints the lock count and
the elapsed seconds as "<count> <seconds>"."""
import sys
import time

import redis


def main() -> None:
    port = int(sys.argv[1])
    r = redis.Redis(host="127.0.0.1", port=port)
    start = time.monotonic()
    count = 0
    cursor = 0
    while True:
        cursor, keys = r.scan(cursor=cursor, match="lock:*", count=1000)
        if keys:
            pipe = r.pipeline(transaction=False)
            for key in keys:
                pipe.pttl(key)
                pipe.get(key)
                pipe.get(b"fence:" + key[len(b"lock:"):])
            replies = pipe.execute()
            for i in range(len(keys)):
                pttl, value, fence = replies[3 * i : 3 * i + 3]
                if pttl != -2:
                    count += 1
        if cursor == 0:
            break
    print(count, time.monotonic() - start)


if __name__ == "__main__":
    main()
