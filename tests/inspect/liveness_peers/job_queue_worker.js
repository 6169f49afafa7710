// A real BullMQ or Bull worker for the liveness tests: adds one job to the queue and processes
// it for a long time, so its lock `bull:<queue>:<jobId>:lock` stays held and is renewed by the
// library (every lockDuration / 2) until the test kills or stops this process.
// Usage: node job_queue_worker.js <adapters dir> bullmq|bull <port> <queue> <lockMs> <jobMs>
'use strict';
const [, , adapters, library, port, queueName, lockMs, jobMs] = process.argv;
const connection = { host: '127.0.0.1', port: Number(port) };
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function bullmq() {
  const { Queue, Worker } = require(adapters + '/node_modules/bullmq');
  const queue = new Queue(queueName, { connection });
  const worker = new Worker(queueName, async job => {
    console.log('started ' + job.id);
    await sleep(Number(jobMs));
  }, { connection, lockDuration: Number(lockMs), stalledInterval: Number(lockMs) });
  worker.on('error', e => console.error('worker error', e.message));
  await queue.add('report', { n: 1 });
}

async function bull() {
  const Bull = require(adapters + '/node_modules/bull');
  const queue = new Bull(queueName, {
    redis: connection,
    settings: { lockDuration: Number(lockMs), stalledInterval: Number(lockMs) },
  });
  queue.process(async job => {
    console.log('started ' + job.id);
    await sleep(Number(jobMs));
  });
  await queue.add({ n: 1 });
}

(library === 'bull' ? bull() : bullmq()).catch(e => {
  console.error(e);
  process.exit(1);
});
