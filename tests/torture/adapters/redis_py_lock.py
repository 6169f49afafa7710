#!/usr/bin/python3
"""Torture adapter for redis-py's Lock (redis.lock.Lock): JSON lines on stdin/stdout.

  -> {"op":"hello","ports":[6380],"resource":"torture","ttl_ms":1000}  <- {"ok":true}
  -> {"op":"acquire","wait_ms":2000}  <- {"ok":true,"token":"...","fence":null} | {"ok":false}
  -> {"op":"extend"} / {"op":"release"}  <- {"ok":true|false}
An exception whose outcome is unknown (a lost connection) answers {"error": "..."}.
redis-py's Lock has no fencing token, so "fence" is always null.
"""
import json
import sys

import redis
from redis.exceptions import LockError, LockNotOwnedError, RedisError

client = None
lock = None
ttl_s = 1.0
name = "lock:{torture}"


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def handle(request):
    global client, lock, ttl_s, name
    op = request.get("op")
    if op == "hello":
        port = int(request["ports"][0])
        ttl_s = int(request["ttl_ms"]) / 1000.0
        name = "lock:{%s}" % request.get("resource", "torture")
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=max(ttl_s, 0.1))
        return {"ok": True}
    if op == "acquire":
        lock = client.lock(name, timeout=ttl_s, sleep=0.01,
                           blocking_timeout=max(int(request.get("wait_ms", 0)), 0) / 1000.0)
        if not lock.acquire():
            return {"ok": False}
        return {"ok": True, "token": lock.local.token.decode(), "fence": None}
    if op == "extend":
        try:
            lock.extend(ttl_s, replace_ttl=True)
            return {"ok": True}
        except LockError:
            return {"ok": False}
    if op == "release":
        try:
            lock.release()
            return {"ok": True}
        except LockNotOwnedError:
            return {"ok": False}  # the lock had expired or changed hands
        except LockError:
            return {"ok": False}
    return {"error": "unknown op %r" % (op,)}


for line in sys.stdin:
    if not line.strip():
        continue
    try:
        answer(handle(json.loads(line)))
    except (RedisError, OSError, ValueError, KeyError, TypeError) as e:
        answer({"error": "%s: %s" % (type(e).__name__, e)})
