// npm run bench:support-bundle: a support bundle of a Depot whose logs weigh 1 GB (issue 28).
// The built server (bench/depot.mjs) starts on a home whose logs directory holds the live logs
// and ten rotated request logs of 100 MiB each, sparse (their bytes read as zeros: the zip
// deflates them to almost nothing, so the run measures reading and zipping 1 GB, not disk
// room). A warm-up bundle without logs, then one of today's logs; the server's resident
// memory is sampled from /proc every 50 ms from just before each call until it is ready.
// Prints the time and the peak RSS growth over the idle server's. Goal: under 50 MB.
// BENCH_LOG_MB (default 1024) sets the logs' total size.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBuiltDepot } from './depot.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const LOG_MB = Number(process.env.BENCH_LOG_MB ?? 1024);
const ROTATED = 10;
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const PORT = 18000 + Math.floor(Math.random() * 1000);
const work = mkdtempSync(join(tmpdir(), 'depot-bench-bundle-'));

/** The resident set of a process, in bytes, as the kernel counts it. */
function rssOf(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line[1]) * 1024;
}

/** Ten rotated request logs of LOG_MB / 10 each, holes only. */
function sparseLogs(logDir) {
  mkdirSync(logDir, { recursive: true });
  for (let index = 1; index <= ROTATED; index++) {
    const path = join(logDir, `depot-request.log.${index}`);
    writeFileSync(path, '');
    truncateSync(path, Math.round((LOG_MB * 1024 * 1024) / ROTATED));
  }
}

async function call(method, path, body) {
  const answer = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

/** Makes one bundle; answers its time, size, and the RSS before it and at its peak. */
async function bundle(body) {
  await sleep(2000);
  const idle = rssOf(child.pid);
  let peak = idle;
  const started = Date.now();
  const { id } = await call('POST', '/artifactory/api/system/support/bundle', body);
  for (;;) {
    peak = Math.max(peak, rssOf(child.pid));
    const [row] = (await call('GET', '/ui/api/v1/ui/userSupport/listBundles')).filter(
      (item) => item.id === id,
    );
    if (row.status === 'failed') throw new Error(`the bundle failed: ${row.error}`);
    if (row.status === 'success')
      return { idle, peak, seconds: (Date.now() - started) / 1000, size: row.size };
    await sleep(50);
  }
}

let child;
try {
  execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const home = join(work, 'home');
  sparseLogs(join(home, 'logs'));
  child = await startBuiltDepot({ home, port: PORT, adminPassword: ADMIN });
  // A first bundle without logs (its range after their last write) loads and compiles what
  // any bundle runs (zip, deploy, diagnostic report): the growth measured next is the logs'.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const warm = await bundle({
    name: 'warm-up',
    parameters: { logs: { start_date: tomorrow, end_date: tomorrow } },
  });
  const whole = await bundle({ name: '1 GB' });
  const growthMb = (whole.peak - whole.idle) / 1e6;
  console.log(
    `support bundle of ${LOG_MB} MiB of logs: ${whole.seconds.toFixed(1)} s, zip ${(whole.size / 1e6).toFixed(1)} MB; ` +
      `RSS idle ${(whole.idle / 1e6).toFixed(0)} MB, peak ${(whole.peak / 1e6).toFixed(0)} MB: growth ${growthMb.toFixed(1)} MB ` +
      `(goal < 50) ${growthMb < 50 ? 'OK' : 'OVER'}; the warm-up bundle without logs grew it ${((warm.peak - warm.idle) / 1e6).toFixed(1)} MB; load ${loadavg()[0].toFixed(1)}`,
  );
} finally {
  child?.kill('SIGTERM');
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
