// node-redlock (npm "redlock" 5 with ioredis) on the servers redlock_bench started, driven
// block by block so its blocks interleave with the C++ ones: prints "ready" after warming
// up, then for every line "block <cycles> <all|quorum>" on stdin runs that many acquire +
// release cycles and prints the microseconds per cycle. Ends at EOF.
//
// The two modes, because node-redlock resolves acquire() and release() as soon as a quorum
// (3 of 5) voted, while the other two nodes' answers arrive later in the background:
//   all     also awaits every node's vote (lock.attempts / the release's attempts), so the
//           cycle ends when all five answered — what LockScope's Redlock does, since it
//           reports every node's outcome and releases everywhere before it returns;
//   quorum  the library as shipped: the cycle ends at the third answer.
// Usage: node redlock_node.mjs <port,port,...> [warmup cycles]
import readline from "node:readline";
import Redlock from "redlock";
import Client from "ioredis";

const [portList, warmupArg] = process.argv.slice(2);
const ports = portList.split(",").map(Number);
const warmup = Number(warmupArg ?? 300);

const clients = ports.map((port) => new Client({ host: "127.0.0.1", port }));
await Promise.all(clients.map((c) => c.ping()));
// The library's defaults, but no retry: one attempt per cycle, as on the C++ side.
const redlock = new Redlock(clients, { driftFactor: 0.01, retryCount: 0 });

const cycles = {
  async all() {
    const lock = await redlock.acquire(["bench:node-redlock"], 10000);
    await Promise.all(lock.attempts);
    const { attempts } = await lock.release();
    await Promise.all(attempts);
  },
  async quorum() {
    const lock = await redlock.acquire(["bench:node-redlock"], 10000);
    await lock.release();
  },
};

for (const cycle of Object.values(cycles)) for (let i = 0; i < warmup; ++i) await cycle();
console.log("ready");

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [word, count, mode] = line.trim().split(/\s+/);
  if (word !== "block" || !cycles[mode]) continue;
  const cycle = cycles[mode];
  const n = Number(count);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; ++i) await cycle();
  console.log((Number(process.hrtime.bigint() - start) / 1000 / n).toFixed(2));
}
// Let the quorum mode's late answers land before closing the connections.
await new Promise((resolve) => setTimeout(resolve, 50));
await Promise.all(clients.map((c) => c.quit()));
