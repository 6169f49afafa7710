// node-redlock (npm "redlock" 5 with ioredis) on the servers redlock_bench started: the same
// acquire + release cycle, timed in blocks like the C++ side. Prints one JSON line.
// Usage: node redlock_node.mjs <port,port,...> <cycles per block> <blocks> <warmup cycles>
import Redlock from "redlock";
import Client from "ioredis";

const [portList, perBlockArg, blocksArg, warmupArg] = process.argv.slice(2);
const ports = portList.split(",").map(Number);
const perBlock = Number(perBlockArg ?? 1000);
const blocks = Number(blocksArg ?? 5);
const warmup = Number(warmupArg ?? 200);

const clients = ports.map((port) => new Client({ host: "127.0.0.1", port, lazyConnect: false }));
await Promise.all(clients.map((c) => c.ping()));
// The library's defaults, but no retry: one attempt per cycle, as on the C++ side.
const redlock = new Redlock(clients, { driftFactor: 0.01, retryCount: 0 });

async function cycle() {
  const lock = await redlock.acquire(["bench:node-redlock"], 10000);
  await lock.release();
}

for (let i = 0; i < warmup; ++i) await cycle();
const perCycle = [];
for (let b = 0; b < blocks; ++b) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perBlock; ++i) await cycle();
  perCycle.push(Number(process.hrtime.bigint() - start) / 1000 / perBlock);
}
perCycle.sort((a, b) => a - b);
console.log(JSON.stringify({ medianMicros: perCycle[Math.floor(perCycle.length / 2)], blocks: perCycle }));
await Promise.all(clients.map((c) => c.quit()));
