#!/usr/bin/env node
// Torture adapter for node-redlock 4 (over ioredis): JSON lines on stdin/stdout, the same
// protocol as redis_py_lock.py. Redlock has no fencing token: "fence" is always null.
// npm install (package.json beside this file) brings the pinned client versions.
'use strict';
const readline = require('readline');
const Redis = require('ioredis');
const Redlock = require('redlock');

let clients = [];
let redlock = null;
let lock = null;
let ttl = 1000;
let resource = 'lock:{torture}';

function connect(port) {
  return new Redis({
    host: '127.0.0.1', port, lazyConnect: false, maxRetriesPerRequest: 0,
    commandTimeout: Math.max(ttl, 100), retryStrategy: () => 50,
  });
}

async function handle(request) {
  switch (request.op) {
    case 'hello':
      ttl = Number(request.ttl_ms);
      resource = `lock:{${request.resource || 'torture'}}`;
      clients = request.ports.map((port) => connect(Number(port)));
      clients.forEach((c) => c.on('error', () => {}));  // reconnects by itself
      return { ok: true };
    case 'acquire': {
      const retryDelay = 10, retryJitter = 10;
      const retryCount = Math.max(0, Math.floor(Number(request.wait_ms || 0) / (retryDelay + retryJitter / 2)));
      redlock = new Redlock(clients, { driftFactor: 0.01, retryCount, retryDelay, retryJitter });
      redlock.on('clientError', () => {});
      try {
        lock = await redlock.lock(resource, ttl);
        return { ok: true, token: lock.value, fence: null };
      } catch (e) {
        if (e instanceof Redlock.LockError) return { ok: false };
        throw e;
      }
    }
    case 'extend':
      try {
        lock = await lock.extend(ttl);
        return { ok: true };
      } catch (e) {
        return { ok: false };
      }
    case 'release':
      try {
        await lock.unlock();
        return { ok: true };
      } catch (e) {
        if (e instanceof Redlock.LockError) return { ok: false };  // gone on a majority
        throw e;
      }
    default:
      return { error: `unknown op ${JSON.stringify(request.op)}` };
  }
}

const lines = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  if (!line.trim()) return;
  queue = queue.then(async () => {
    let reply;
    try {
      reply = await handle(JSON.parse(line));
    } catch (e) {
      reply = { error: `${e.name}: ${e.message}` };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
});
lines.on('close', () => queue.then(() => process.exit(0)));
