// npm run bench:webhooks: what webhooks cost and how fast they arrive (issue 26, docs/webhooks.md),
// against a receiver on loopback, with two built Depots set up alike measured in the same run:
// one with BENCH_SUBSCRIPTIONS (20) subscriptions matching every deploy, one with none.
// Prints medians and ratios:
// - deploy throughput of small files (BENCH_DEPLOYS per round, 8 at once), with / without
//   subscriptions (goal >= 0.9), and the median deploy latency of each (with / without);
// - deliveries per second: every delivery of a round received, over the round's time;
// - event-to-delivery latency at BENCH_RATE (100) deploys per second for BENCH_PACED_SECONDS
//   (10): from the deploy's answer to the receiver's receipt, p50 and p95 (goal p95 < 1 s);
// - a receiver outage of BENCH_OUTAGE_SECONDS (60; the issue's figure is 600) under that
//   load: after the receiver is back, the backlog drains; lost and duplicated deliveries
//   (by X-Depot-Delivery) are counted (goal: 0 lost).
// - the CPU time each Depot spent per deploy (Linux, from /proc): with subscriptions, the
//   deploy and its deliveries until the last arrived; without, the deploy alone. On a shared,
//   loaded machine this says what webhooks cost better than throughput does.
// BENCH_RUNS (3) rounds take turns between the two Depots. Needs a built server (this
// script runs scripts/prepare-start.mjs first), or BENCH_BUNDLE: another build of it to
// measure (say, one bundled from an earlier commit, to compare).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBuiltDepot } from './depot.mjs';
import { depotCaller, freePort, prepareSubscriptions } from './webhooks-setup.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const RUNS = env('BENCH_RUNS', 3);
const DEPLOYS = env('BENCH_DEPLOYS', 400);
const SUBSCRIPTIONS = env('BENCH_SUBSCRIPTIONS', 20);
const RATE = env('BENCH_RATE', 100);
const PACED_SECONDS = env('BENCH_PACED_SECONDS', 10);
const OUTAGE_SECONDS = env('BENCH_OUTAGE_SECONDS', 60);
const BUNDLE = process.env.BENCH_BUNDLE;
const CONCURRENCY = 8;
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const call = depotCaller(AUTH);
const work = mkdtempSync(join(tmpdir(), 'depot-bench-webhooks-'));
const children = [];
/** Each Depot's process id, by its port. */
const pids = new Map();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const now = () => performance.now();

/** CPU time (user + system, all threads) a process used so far, in ms; NaN off Linux. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * CPU time per thread of a process so far, in ms, by thread id (Linux; empty elsewhere): the
 * split of a burst's CPU between Depot's main thread and its embedded database's worker.
 */
function threadCpuMs(pid) {
  const byThread = new Map();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
          .split(') ')[1]
          .split(' ');
        byThread.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        // the thread ended
      }
    }
  } catch {
    // not Linux
  }
  return byThread;
}

/**
 * What a phase cost each thread: the main thread, the busiest other (the embedded database's
 * worker), every other thread together, and this process (the clients and the receiver), ms.
 */
function cpuSplit(pid, before, benchBefore) {
  const after = threadCpuMs(pid);
  const spent = [...after].map(([tid, ms]) => [tid, ms - (before.get(tid) ?? 0)]);
  const main = spent.find(([tid]) => tid === String(pid))?.[1] ?? NaN;
  const others = spent.filter(([tid]) => tid !== String(pid)).map(([, ms]) => ms);
  const worker = Math.max(0, ...others);
  const rest = others.reduce((a, b) => a + b, 0) - worker;
  const bench = process.cpuUsage(benchBefore);
  return { main, worker, rest, bench: (bench.user + bench.system) / 1000 };
}

/** The most resident memory a process has held so far (VmHWM), in MB; NaN off Linux. */
function peakRssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    return Number(line[1]) / 1024;
  } catch {
    return NaN;
  }
}

/**
 * The receiver: every delivery's id, subscription and path, and when it arrived; and per
 * path prefix (`paced`, `outage`), the distinct subscription and path pairs received, kept
 * as they arrive: the waits below poll them every 20 ms, and counting the whole list each
 * time would take the receiver's own CPU (this process) as the list grows.
 */
function startReceiver(port = 0) {
  const received = [];
  const distinct = new Map();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const path = body.data?.path ?? '';
      received.push({
        id: request.headers['x-depot-delivery'],
        subscription: body.subscription_key,
        path,
        at: now(),
      });
      const prefix = path.split('/')[0];
      if (!distinct.has(prefix)) distinct.set(prefix, new Set());
      distinct.get(prefix).add(`${body.subscription_key} ${path}`);
      response.writeHead(200).end('ok');
    });
  });
  return new Promise((done) =>
    server.listen(port, '127.0.0.1', () =>
      done({
        received,
        /** Distinct subscription and path pairs received under `prefix/`. */
        distinctUnder: (prefix) => distinct.get(prefix)?.size ?? 0,
        port: server.address().port,
        close: () =>
          new Promise((closed) => {
            server.closeAllConnections();
            server.close(closed);
          }),
      }),
    ),
  );
}

async function startDepot(name, port, receiverPort, subscriptions) {
  const home = join(work, name);
  const child = await startBuiltDepot({
    home,
    port,
    adminPassword: ADMIN,
    ...(BUNDLE ? { bundle: BUNDLE } : {}),
  });
  children.push(child);
  pids.set(port, child.pid);
  await prepareSubscriptions(call, port, subscriptions, receiverPort);
  return port;
}

/** Deploys `paths`, CONCURRENCY at once; answers each deploy's latency and the whole time. */
async function deployAll(port, paths) {
  const latencies = [];
  const queue = [...paths];
  const started = now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let path = queue.shift(); path; path = queue.shift()) {
        const start = now();
        await call(port, 'PUT', `/artifactory/bench-local/${path}`, `content of ${path}`);
        latencies.push(now() - start);
      }
    }),
  );
  return { seconds: (now() - started) / 1000, latencies };
}

/** Deploys at `rate` per second for `seconds`; answers when each path's deploy was answered. */
async function deployPaced(port, prefix, rate, seconds) {
  const answered = new Map();
  const pending = [];
  const start = now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = start + (i * 1000) / rate;
    if (due > now()) await sleep(due - now());
    const path = `${prefix}/f-${i}.txt`;
    pending.push(
      call(port, 'PUT', `/artifactory/bench-local/${path}`, 'x').then(() =>
        answered.set(path, now()),
      ),
    );
  }
  await Promise.all(pending);
  return answered;
}

async function until(check, what, ms) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function main() {
  if (!BUNDLE)
    execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  let receiver = await startReceiver();
  const withHooks = await startDepot('with', await freePort(), receiver.port, SUBSCRIPTIONS);
  const without = await startDepot('without', await freePort(), receiver.port, 0);

  const rates = { with: [], without: [] };
  const deployMs = { with: [], without: [] };
  const deliveryRates = [];
  const cpuPerDeploy = { with: [], without: [] };
  /** Per round with subscriptions: from the burst's last answer to its last delivery, s. */
  const deliveredAfter = [];
  /** Per round and side: each thread's CPU per deploy in the burst, then until delivered. */
  const splits = { with: [], without: [], withDelivered: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const [side, port] of [
      ['with', withHooks],
      ['without', without],
    ]) {
      const paths = Array.from({ length: DEPLOYS }, (_, i) => `r${run}/${side}/f-${i}.txt`);
      const before = receiver.received.length;
      const started = now();
      const cpuBefore = cpuMs(pids.get(port));
      const threadsBefore = threadCpuMs(pids.get(port));
      const benchBefore = process.cpuUsage();
      const { seconds, latencies } = await deployAll(port, paths);
      splits[side].push(cpuSplit(pids.get(port), threadsBefore, benchBefore));
      rates[side].push(DEPLOYS / seconds);
      deployMs[side].push(median(latencies));
      if (side === 'with') {
        const expected = DEPLOYS * SUBSCRIPTIONS;
        const burstEnd = now();
        await until(() => receiver.received.length - before >= expected, 'the deliveries', 300_000);
        deliveredAfter.push((receiver.received.at(-1).at - burstEnd) / 1000);
        deliveryRates.push(expected / ((now() - started) / 1000));
        splits.withDelivered.push(cpuSplit(pids.get(port), threadsBefore, benchBefore));
      }
      cpuPerDeploy[side].push((cpuMs(pids.get(port)) - cpuBefore) / DEPLOYS);
    }
  }

  // The throughput figures first: a paced phase the machine cannot hold does not lose them.
  const ratio = median(rates.with) / median(rates.without);
  console.log(
    `webhooks, ${SUBSCRIPTIONS} subscriptions matching every deploy, ${RUNS} runs of ${DEPLOYS} deploys:`,
  );
  console.log(
    `  deploys/s with ${median(rates.with).toFixed(0)}, without ${median(rates.without).toFixed(0)}: ratio ${ratio.toFixed(2)} (goal >= 0.9)`,
  );
  console.log(
    `  deploy latency (median) with ${median(deployMs.with).toFixed(1)} ms, without ${median(deployMs.without).toFixed(1)} ms: ratio ${(median(deployMs.with) / median(deployMs.without)).toFixed(2)}`,
  );
  console.log(
    `  deliveries/s (every delivery of a round received): ${median(deliveryRates).toFixed(0)}`,
  );
  // What deferring deliveries costs: a burst's ratio says nothing of the work left after it.
  const burstSeconds = DEPLOYS / median(rates.with);
  const lastAfter = median(deliveredAfter);
  console.log(
    `  the burst's last delivery arrived ${lastAfter.toFixed(1)} s after its last deploy's answer (burst ${burstSeconds.toFixed(1)} s); deploys/s with, counted until the last delivery: ${(DEPLOYS / (burstSeconds + lastAfter)).toFixed(0)}`,
  );
  const perDeploy = (split) =>
    ['main', 'worker', 'rest', 'bench']
      .map((part) => `${part} ${(median(split.map((s) => s[part])) / DEPLOYS).toFixed(1)}`)
      .join(', ');
  console.log(
    `  CPU per deploy in the burst, ms (main thread, database worker, other threads, bench process):`,
  );
  console.log(`    without: ${perDeploy(splits.without)}`);
  console.log(`    with, until the burst's last answer: ${perDeploy(splits.with)}`);
  console.log(`    with, until its last delivery: ${perDeploy(splits.withDelivered)}`);
  const cpuWith = median(cpuPerDeploy.with);
  const cpuWithout = median(cpuPerDeploy.without);
  console.log(
    `  Depot CPU per deploy: with ${cpuWith.toFixed(1)} ms (its ${SUBSCRIPTIONS} deliveries included), without ${cpuWithout.toFixed(1)} ms: ${((cpuWith - cpuWithout) / SUBSCRIPTIONS).toFixed(2)} ms per delivery`,
  );

  // Event-to-delivery latency at a steady deploy rate.
  const answered = await deployPaced(withHooks, 'paced', RATE, PACED_SECONDS);
  await until(
    () => receiver.distinctUnder('paced') >= answered.size * SUBSCRIPTIONS,
    'the paced deliveries',
    300_000,
  );
  const latencies = receiver.received
    .filter((r) => r.path?.startsWith('paced/'))
    .map((r) => r.at - answered.get(r.path));
  console.log(
    `  event-to-delivery at ${RATE} deploys/s for ${PACED_SECONDS} s: p50 ${median(latencies).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms (goal p95 < 1000 ms)`,
  );

  // An outage under the same load: the receiver is away, then back.
  let outage = 'skipped (BENCH_OUTAGE_SECONDS=0)';
  if (OUTAGE_SECONDS > 0) {
    const { port } = receiver;
    const kept = receiver.received;
    await receiver.close();
    const awayFrom = now();
    const away = await deployPaced(withHooks, 'outage', RATE, OUTAGE_SECONDS);
    const awaySeconds = (now() - awayFrom) / 1000;
    receiver = await startReceiver(port);
    const backAt = now();
    const expected = away.size * SUBSCRIPTIONS;
    console.log(
      `  outage: ${away.size} deploys answered in ${awaySeconds.toFixed(1)} s; backlog ${expected} deliveries when the receiver came back`,
    );
    const arrived = () => receiver.received.filter((r) => r.path?.startsWith('outage/'));
    const distinct = () => receiver.distinctUnder('outage');
    await until(() => distinct() >= expected, 'the backlog to drain', 3_600_000);
    const drainSeconds = (now() - backAt) / 1000;
    const ids = arrived().map((r) => r.id);
    const duplicated = ids.length - new Set(ids).size;
    outage = `${expected} deliveries drained ${drainSeconds.toFixed(1)} s after the receiver came back; lost ${expected - distinct()}, duplicated ${duplicated}`;
    kept.push(...receiver.received);
  }

  console.log(`  outage of ${OUTAGE_SECONDS} s: ${outage}`);
  console.log(
    `  peak RSS (VmHWM) of the Depot with subscriptions ${peakRssMb(pids.get(withHooks)).toFixed(0)} MB, without ${peakRssMb(pids.get(without)).toFixed(0)} MB`,
  );
  await receiver.close();
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
  await sleep(500);
  // A server killed a moment ago may still be writing its last files: retried, not thrown
  // over the error that ended the run.
  rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
