// Where a delivery's time goes at a paced deploy rate (issue 26): one built Depot with
// TRACE_SUBSCRIPTIONS subscriptions, its dispatcher tracing (DEPOT_WEBHOOK_TRACE), deploys at
// TRACE_RATE a second for TRACE_SECONDS; then each delivery's path, deploy answered -> fanned
// out -> claimed -> sent -> answered -> recorded, the queue's depth and each thread's CPU
// per second.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBuiltDepot } from './depot.mjs';
import { depotCaller, freePort, prepareSubscriptions } from './webhooks-setup.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const SUBSCRIPTIONS = env('TRACE_SUBSCRIPTIONS', 20);
const RATE = env('TRACE_RATE', 100);
const SECONDS = env('TRACE_SECONDS', 10);
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const call = depotCaller(AUTH);
const work = mkdtempSync(join(tmpdir(), 'depot-trace-webhooks-'));
const traceFile = join(work, 'trace.jsonl');
const epoch = () => performance.timeOrigin + performance.now();
const pct = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : '-');

function startReceiver() {
  const received = new Map();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.set(request.headers['x-depot-delivery'], {
        at: epoch(),
        path: body.data?.path ?? '',
        subscription: body.subscription_key,
      });
      response.writeHead(200).end('ok');
    });
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({ received, port: server.address().port, close: () => server.close() }),
    ),
  );
}

/** CPU ms per thread name (threads of one name summed). */
function threadCpu(pid) {
  const byName = {};
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = `${name}/${task}`;
      byName[key] = (byName[key] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // the thread ended
    }
  }
  return byName;
}

async function until(check, ms) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

async function main() {
  if (!process.env.TRACE_BUNDLE)
    execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const receiver = await startReceiver();
  const port = await freePort();
  const child = await startBuiltDepot({
    home: join(work, 'home'),
    port,
    adminPassword: ADMIN,
    env: { DEPOT_WEBHOOK_TRACE: traceFile },
    ...(process.env.TRACE_BUNDLE ? { bundle: process.env.TRACE_BUNDLE } : {}),
  });
  try {
    await prepareSubscriptions(call, port, SUBSCRIPTIONS, receiver.port);
    // Warm up: JIT, pools, caches.
    for (let i = 0; i < 50; i++)
      await call(port, 'PUT', `/artifactory/bench-local/warm/f-${i}`, 'x');
    await until(() => receiver.received.size >= 50 * SUBSCRIPTIONS, 120_000);
    await sleep(1500);

    const answered = new Map();
    const cpu = [];
    const sampler = setInterval(() => cpu.push({ t: epoch(), byName: threadCpu(child.pid) }), 500);
    cpu.push({ t: epoch(), byName: threadCpu(child.pid) });
    const start = epoch();
    const pending = [];
    for (let i = 0; i < RATE * SECONDS; i++) {
      const due = start + (i * 1000) / RATE;
      if (due > epoch()) await sleep(due - epoch());
      const path = `paced/f-${i}.txt`;
      pending.push(
        call(port, 'PUT', `/artifactory/bench-local/${path}`, 'x').then(() =>
          answered.set(path, epoch()),
        ),
      );
    }
    await Promise.all(pending);
    const deploysDone = epoch();
    const expected = RATE * SECONDS * SUBSCRIPTIONS;
    const paced = () =>
      [...receiver.received.values()].filter((r) => r.path.startsWith('paced/')).length;
    await until(() => paced() >= expected, 600_000);
    const allDone = epoch();
    clearInterval(sampler);
    cpu.push({ t: epoch(), byName: threadCpu(child.pid) });
    await sleep(1000);
    const exited = new Promise((done) =>
      child.exitCode !== null ? done() : child.once('exit', done),
    );
    child.kill('SIGTERM');
    await exited;
    report({ start, deploysDone, allDone, answered, received: receiver.received, cpu });
  } finally {
    child.kill('SIGTERM');
    receiver.close();
  }
}

function report({ start, deploysDone, allDone, answered, received, cpu }) {
  if (!existsSync(traceFile))
    throw new Error('No trace written: the build measured has no DEPOT_WEBHOOK_TRACE');
  const lines = readFileSync(traceFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const fanned = new Map();
  const claimed = new Map();
  const sent = new Map();
  const recorded = new Map();
  for (const e of lines) {
    if (e.k === 'fan') for (const id of e.ids) fanned.set(String(id), e.t);
    if (e.k === 'c') claimed.set(e.id, e);
    if (e.k === 's') sent.set(e.id, e);
    if (e.k === 'w') for (const id of e.ids) recorded.set(id, e.t);
  }
  const gaps = {
    'deploy answered -> fanned out': [],
    'fanned out -> claimed': [],
    'claimed -> send starts': [],
    'send starts -> receiver has it': [],
    'receiver has it -> answer read': [],
    'answer read -> recorded': [],
    'TOTAL deploy answered -> receiver has it': [],
  };
  const bySubscription = new Map();
  for (const [id, r] of received) {
    if (!r.path.startsWith('paced/')) continue;
    const a = answered.get(r.path);
    const c = claimed.get(id);
    const s = sent.get(id);
    const fan = c ? fanned.get(c.ev) : undefined;
    gaps['deploy answered -> fanned out'].push(fan - a);
    gaps['fanned out -> claimed'].push(c?.t - fan);
    gaps['claimed -> send starts'].push(s?.t0 - c?.t);
    gaps['send starts -> receiver has it'].push(r.at - s?.t0);
    gaps['receiver has it -> answer read'].push(s?.t1 - r.at);
    gaps['answer read -> recorded'].push(recorded.get(id) - s?.t1);
    gaps['TOTAL deploy answered -> receiver has it'].push(r.at - a);
    const list = bySubscription.get(r.subscription) ?? [];
    list.push(r.at - a);
    bySubscription.set(r.subscription, list);
  }
  console.log(
    `${SUBSCRIPTIONS} subscriptions, ${RATE} deploys/s for ${SECONDS} s: deploys answered by ${f((deploysDone - start) / 1000)} s, last delivery at ${f((allDone - start) / 1000)} s`,
  );
  console.log('stage (ms)                                   p50      p95      max');
  for (const [name, values] of Object.entries(gaps)) {
    const ok = values.filter(Number.isFinite);
    console.log(
      `${name.padEnd(42)} ${f(pct(ok, 0.5)).padStart(8)} ${f(pct(ok, 0.95)).padStart(8)} ${f(pct(ok, 1)).padStart(8)}  (${ok.length})`,
    );
  }
  const subP95 = [...bySubscription.values()].map((v) => pct(v, 0.95));
  console.log(
    `per subscription p95: min ${f(Math.min(...subP95))} max ${f(Math.max(...subP95))} ms`,
  );

  // Per second from the paced start.
  const second = (t) => Math.floor((t - start) / 1000);
  const rows = new Map();
  const row = (s) => {
    if (!rows.has(s))
      rows.set(s, {
        deploys: 0,
        fanned: 0,
        sent: 0,
        rounds: 0,
        claims: 0,
        claimMs: 0,
        claimed: 0,
        fans: 0,
        fanMs: 0,
        batches: 0,
        batchMs: 0,
        recordWait: 0,
        records: 0,
        q: [],
        waited: 0,
      });
    return rows.get(s);
  };
  for (const t of answered.values()) row(second(t)).deploys++;
  for (const e of lines) {
    if (e.t < start - 1000) continue;
    const r = row(second(e.t ?? e.t1));
    if (e.k === 'fan') {
      r.fanned += e.n;
      r.fans++;
      r.fanMs += e.ms;
    } else if (e.k === 's') r.sent++;
    else if (e.k === 'round') {
      r.rounds++;
      r.waited += e.waited;
    } else if (e.k === 'claim') {
      r.claims++;
      r.claimMs += e.ms;
      r.claimed += e.n;
    } else if (e.k === 'batch') {
      r.batches++;
      r.batchMs += e.ms;
    } else if (e.k === 'w') {
      r.records++;
      r.recordWait += e.wait;
    } else if (e.k === 'q') r.q.push(e);
  }
  const cpuAt = (s) => {
    const t = start + s * 1000;
    return cpu.reduce((best, c) => (Math.abs(c.t - t) < Math.abs(best.t - t) ? c : best));
  };
  const threads = Object.keys(cpu.at(-1).byName)
    .filter((name) => cpu.at(-1).byName[name] - (cpu[0].byName[name] ?? 0) > 100)
    .sort();
  console.log(
    `\n  s deploy fanned   sent rounds wait/r claims ms/claim per-claim fans ms/fan batches ms/batch recwait  outbox pending running | CPU % ${threads.join(' ')}`,
  );
  for (const s of [...rows.keys()].filter((s) => s >= 0).sort((a, b) => a - b)) {
    const r = rows.get(s);
    const last = r.q.at(-1) ?? {};
    const c0 = cpuAt(s);
    const c1 = cpuAt(s + 1);
    const span = c1.t - c0.t || 1;
    const perThread = threads.map((name) =>
      f((((c1.byName[name] ?? 0) - (c0.byName[name] ?? 0)) / span) * 100),
    );
    console.log(
      [
        String(s).padStart(3),
        String(r.deploys).padStart(6),
        String(r.fanned).padStart(6),
        String(r.sent).padStart(6),
        String(r.rounds).padStart(6),
        f(r.waited / r.rounds).padStart(6),
        String(r.claims).padStart(6),
        f(r.claimMs / r.claims).padStart(8),
        f(r.claimed / r.claims).padStart(9),
        String(r.fans).padStart(4),
        f(r.fanMs / r.fans).padStart(6),
        String(r.batches).padStart(7),
        f(r.batchMs / r.batches).padStart(8),
        f(r.recordWait / r.records).padStart(7),
        String(last.outbox ?? '-').padStart(7),
        String(last.pending ?? '-').padStart(7),
        String(last.running ?? '-').padStart(7),
        '|',
        perThread.join(' '),
      ].join(' '),
    );
  }
}

try {
  await main();
} finally {
  await sleep(300);
  rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
