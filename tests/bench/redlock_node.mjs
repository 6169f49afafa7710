// node-redlock (npm "redlock" 5 with ioredis) on the servers redlock_bench started, driven
// block by block so its blocks interleave with the C++ ones: prints "ready" after warming
// up, then for every line "block <cycles>" on stdin runs that many acquire + release cycles
// and prints the microseconds per cycle. Ends at EOF.
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

async function cycle() {
  const lock = await redlock.acquire(["bench:node-redlock"], 10000);
  await lock.release();
}

for (let i = 0; i < warmup; ++i) await cycle();
console.log("ready");

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [word, count] = line.trim().split(/\s+/);
  if (word !== "block") continue;
  const cycles = Number(count);
  const start = process.hrtime.bigint();
  for (let i = 0; i < cycles; ++i) await cycle();
  console.log((Number(process.hrtime.bigint() - start) / 1000 / cycles).toFixed(2));
}
await Promise.all(clients.map((c) => c.quit()));
