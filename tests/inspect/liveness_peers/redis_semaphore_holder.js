// A real redis-semaphore 5 holder for the format and liveness tests: takes a Mutex on
// "printer" and a Semaphore (limit 3) on "pool", prints each identifier, and keeps both,
// refreshed by the library (every 80% of lockTimeout), until it is killed. With "semaphore"
// as its last argument it takes only the Semaphore (several such holders share "pool").
// Usage: node redis_semaphore_holder.js <adapters dir> <port> <lockTimeoutMs> [semaphore]
'use strict';
const [, , adapters, port, lockTimeout, only] = process.argv;
const Redis = require(adapters + '/node_modules/ioredis');
const { Mutex, Semaphore } = require(adapters + '/node_modules/redis-semaphore');

(async () => {
  const client = new Redis({ host: '127.0.0.1', port: Number(port) });
  const options = { lockTimeout: Number(lockTimeout), onLockLost: e => console.error(e.message) };
  if (only !== 'semaphore') {
    const mutex = new Mutex(client, 'printer', options);
    await mutex.acquire();
    console.log('mutex ' + mutex.identifier);
  }
  const semaphore = new Semaphore(client, 'pool', 3, options);
  await semaphore.acquire();
  console.log('semaphore ' + semaphore.identifier);
})().catch(e => {
  console.error(e);
  process.exit(1);
});
