// A real BullMQ or Bull worker for the liveness tests: adds one job to the queue and processes
// it for a long time, so its lock `bull:<queue>:<jobId>:lock` stays held and is renewed by the
// library (every lockDuration / 2) until the test kills or stops this process.
// Usage: node job_queue_worker.js <adapters dir> bullmq|bull <port> <queue> <lockMs> <jobMs>
//        [<jobs>]   (that many jobs at once, one worker with that concurrency; default 1)
'use strict';
const [, , adapters, library, port, queueName, lockMs, jobMs, jobsArg] = process.argv;
const jobs = Number(jobsArg || 1);
const connection = { host: '127.0.0.1', port: Number(port) };
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function bullmq() {
  const { Queue, Worker } = require(adapters + '/node_modules/bullmq');
  const queue = new Queue(queueName, { connection });
  const worker = new Worker(queueName, async job => {
    console.log('started ' + job.id);
    await sleep(Number(jobMs));
  }, { connection, lockDuration: Number(lockMs), stalledInterval: Number(lockMs),
        concurrency: jobs });
  worker.on('error', e => console.error('worker error', e.message));
  for (let n = 0; n < jobs; ++n) await queue.add('report', { n });
}

async function bull() {
  const Bull = require(adapters + '/node_modules/bull');
  const queue = new Bull(queueName, {
    redis: connection,
    settings: { lockDuration: Number(lockMs), stalledInterval: Number(lockMs) },
  });
  queue.process(jobs, async job => {
    console.log('started ' + job.id);
    await sleep(Number(jobMs));
  });
  for (let n = 0; n < jobs; ++n) await queue.add({ n });
}

(library === 'bull' ? bull() : bullmq()).catch(e => {
  console.error(e);
  process.exit(1);
});
