// npm run bench:lifecycle: backups and the retention preview at scale (issue 29). A Depot
// (the built server, a child process on the embedded database) whose repository holds
// BENCH_ITEMS files (1,000,000 by default) over BENCH_BYTES bytes (10 GB) of sparse binaries,
// seeded in bulk through the same tables a deploy writes (no upload per item). In the same run:
//   full backup (POST /artifactory/api/export/system) against `tar` of the same filestore,
//     BENCH_RUNS alternating rounds, medians      ratio goal <= 1.5
//   incremental backup after 1 % more items       goal <= 5 % of the full backup's time
//   retention preview choosing every item          goal <= 2 s
//   peak RSS growth of the Depot child during each job (polled from /proc)   goal < 100 MB
// BENCH_ITEMS, BENCH_BYTES and BENCH_RUNS (default 3) scale it down for a quick look;
// BENCH_ONLY=preview measures the retention preview alone (no sparse files, no backups).
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { ftruncateSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';
import { startBuiltDepot } from './depot.mjs';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const BYTES = Number(process.env.BENCH_BYTES ?? 10 * 1024 ** 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FOLDERS = Math.max(1, Math.ceil(ITEMS / 1000));
const REPO = 'lifecycle-local';
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
// Not derived from the pid: other benchmarks' ranges overlap (startBuiltDepot refuses a taken port).
const PORT = 20000 + Math.floor(Math.random() * 20000);
const PREVIEW_ONLY = process.env.BENCH_ONLY === 'preview';
const GOALS = { tarRatio: 1.5, incrementalShare: 0.05, previewSeconds: 2, rssMb: 100 };

const work = mkdtempSync(join(tmpdir(), 'depot-bench-lifecycle-'));
const home = join(work, 'home');
const backups = join(work, 'backups');
const stderrFile = join(work, 'depot-stderr.log');
const base = `http://127.0.0.1:${PORT}`;
let depot: ChildProcess | undefined;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);

/** The child's resident set, from /proc (bytes). */
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Runs `job`, polling the Depot child's RSS every 20 ms: its time and peak growth. */
async function measured(job: () => Promise<unknown>) {
  const pid = depot!.pid!;
  const before = rssOf(pid);
  let peak = before;
  const poll = setInterval(() => {
    // A child that exited has no /proc entry: the job's own call then says what happened.
    if (depot?.exitCode === null) peak = Math.max(peak, rssOf(pid));
  }, 20);
  const started = performance.now();
  try {
    await job();
  } finally {
    clearInterval(poll);
  }
  return { seconds: (performance.now() - started) / 1000, growth: Math.max(0, peak - before) };
}

async function call(method: string, path: string, body?: unknown) {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: Error) => {
    throw new Error(
      `${method} ${path} failed: ${error.message} (${String(error.cause)}); ${childState()}`,
    );
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
  return answer.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

/** Whether the Depot child still runs, and the end of what it wrote to stderr. */
function childState() {
  const state =
    depot?.exitCode === null
      ? 'the Depot still runs'
      : `the Depot exited (${depot?.exitCode ?? depot?.signalCode})`;
  const stderr = existsSync(stderrFile) ? readFileSync(stderrFile, 'utf8').slice(-2000) : '';
  return stderr ? `${state}; its stderr ends:\n${stderr}` : state;
}

const start = async () =>
  (depot = await startBuiltDepot({
    home,
    port: PORT,
    adminPassword: ADMIN,
    env: { DEPOT_BACKUP_DIRS: backups },
    waitSeconds: 600,
    stderrFile,
  }));

async function stop() {
  const child = depot;
  depot = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Items `from`..`to` (1-based): their blobs (distinct fake checksums: nothing here reads
 * content by its hash), the file rows, and a sparse file of each blob's size in the filestore.
 */
async function seed(from: number, to: number) {
  const config = loadConfig({ DEPOT_HOME: home, DEPOT_LOG_STDOUT: 'false' });
  const db = await openDatabase(config, createLogger(config));
  const size = Math.max(1, Math.floor(BYTES / ITEMS));
  try {
    const [{ id }] = await db
      .selectFrom('repositories')
      .select('id')
      .where('key', '=', REPO)
      .execute();
    if (from === 1)
      await sql`insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
        select ${id}, 'd-' || d, '', 'd-' || d, true, 0, 'seed', 'seed'
        from generate_series(1, ${FOLDERS}::int) as d`.execute(db);
    await sql`insert into blobs (sha256, sha1, md5, size)
      select md5(i::text) || md5((-i)::text), md5(i::text) || left(md5((i + 7)::text), 8),
             md5((i * 3)::text), ${size}::bigint
      from generate_series(${from}::int, ${to}::int) as i`.execute(db);
    await sql`insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
                                 created_at, created_by, modified_at, modified_by)
      select ${id}, 'd-' || (i % ${FOLDERS} + 1) || '/item-' || i || '.bin', 'd-' || (i % ${FOLDERS} + 1),
             'item-' || i || '.bin', false, md5(i::text) || md5((-i)::text), ${size}::bigint,
             now() - interval '400 days', 'seed', now() - interval '400 days', 'seed'
      from generate_series(${from}::int, ${to}::int) as i`.execute(db);
    // What the embedded database's upkeep job (docs/maintenance.md) gives a running Depot
    // within ten minutes: statistics, and pages marked all-visible.
    await sql`vacuum (analyze)`.execute(db);
    if (PREVIEW_ONLY) return config.filestoreDir;
    const { rows } = await sql<{ sha256: string }>`
      select sha256 from blobs where size = ${size}::bigint order by sha256`.execute(db);
    for (const { sha256 } of rows) {
      const dir = join(config.filestoreDir, sha256.slice(0, 2), sha256.slice(2, 4));
      const path = join(dir, sha256);
      mkdirSync(dir, { recursive: true });
      const fd = openSync(path, 'a');
      ftruncateSync(fd, size);
      closeSync(fd);
    }
    return config.filestoreDir;
  } finally {
    await db.destroy();
  }
}

/** Seconds each system export spent reading its metadata (until the space check began). */
const metadataSeconds: Record<string, number[]> = { full: [], incremental: [], 'warm-up': [] };
/**
 * Each export's phases (from its streamed lines): the metadata dump, the space check (an
 * incremental backup's merge against the packs), the binaries (listing, reading, the pack,
 * its index and the flush to disk), the finishing (manifest, rename, retention).
 */
const PHASE_LINES = [
  ['space', 'Checking the free space'],
  ['binaries', 'Writing the binaries'],
  ['finishing', 'Finishing'],
] as const;
const phaseLog: string[] = [];

/**
 * A system export: its answer streams a line per phase and ends with how it went
 * (docs/backup.md, "System export"); the metadata phase is timed from the lines' arrival.
 */
async function exportSystem(kind: 'full' | 'incremental' | 'warm-up', body: object) {
  const started = performance.now();
  const answer = await fetch(`${base}/artifactory/api/export/system`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch((error: Error) => {
    throw new Error(`export failed: ${error.message} (${String(error.cause)}); ${childState()}`);
  });
  if (!answer.ok) throw new Error(`export answered ${answer.status}: ${await answer.text()}`);
  let text = '';
  let metadataDone: number | undefined;
  const seen = new Map<string, number>();
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    text += next.value;
    if (metadataDone === undefined && text.includes('Checking the free space'))
      metadataDone = performance.now();
    for (const [phase, line] of PHASE_LINES)
      if (!seen.has(phase) && text.includes(line)) seen.set(phase, performance.now());
  }
  const ended = performance.now();
  const marks = [['metadata', started] as const, ...seen.entries()];
  phaseLog.push(
    `${kind}: ${marks
      .map(
        ([phase, at], i) => `${phase} ${(((marks[i + 1]?.[1] ?? ended) - at) / 1000).toFixed(2)} s`,
      )
      .join(', ')}`,
  );
  const last = text.trimEnd().split('\n').at(-1) ?? '';
  if (!last.startsWith('Export finished successfully'))
    throw new Error(`export did not finish: ${last}; ${childState()}`);
  if (metadataDone) metadataSeconds[kind].push((metadataDone - started) / 1000);
}
const fullBackup = (round: number) => exportSystem('full', { exportPath: `full-${round}` });
const incrementalBackup = () =>
  exportSystem('incremental', { exportPath: 'incremental', incremental: true });
const preview = () =>
  call('POST', '/ui/api/v1/ui/retention/archive/policies/preview', {
    key: 'bench',
    cronExp: '0 0 3 ? * SUN',
    enabled: false,
    action: 'archive',
    policyBase: 'FORM',
    repositories: [REPO],
  });

/**
 * `tar` of the filestore, timed. Run asynchronously: with `execFileSync` the benchmark's event
 * loop stood still for the whole `tar` (twice in a row between rounds 0 and 1), so its fetch
 * could not see the keep-alive connection close meanwhile and sent the next export on it:
 * "other side closed" at once, the request never reaching the Depot (docs/backup.md, "Other
 * side closed").
 */
async function tarOf(filestore: string, round: number) {
  const started = performance.now();
  await promisify(execFile)('tar', [
    '-cf',
    join(backups, `tar-${round}.tar`),
    '-C',
    filestore,
    '.',
  ]);
  return (performance.now() - started) / 1000;
}

async function main() {
  console.log(
    `bench:lifecycle: ${ITEMS.toLocaleString('en')} items, ${mb(BYTES)} MB, ${RUNS} rounds; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  // The server as `npm start` runs it (the console is not needed here).
  execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    "import('./scripts/bundle-server.mjs').then((m) => m.bundleServer('dist/server'))",
  ]);
  mkdirSync(backups, { recursive: true });
  await start();
  await call('PUT', `/artifactory/api/repositories/${REPO}`, {
    rclass: 'local',
    packageType: 'generic',
  });
  await stop();
  const seeded = performance.now();
  const filestore = await seed(1, ITEMS);
  console.log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  await start();

  const full: number[] = [];
  const tar: number[] = [];
  const growth: Record<string, number[]> = { full: [], incremental: [], preview: [] };
  for (let round = 0; round < (PREVIEW_ONLY ? 0 : RUNS); round++) {
    const backupFirst = round % 2 === 0;
    if (!backupFirst) tar.push(await tarOf(filestore, round));
    const backup = await measured(() => fullBackup(round));
    full.push(backup.seconds);
    growth.full.push(backup.growth);
    if (backupFirst) tar.push(await tarOf(filestore, round));
    rmSync(join(backups, `full-${round}`), { recursive: true, force: true });
    rmSync(join(backups, `tar-${round}.tar`), { force: true });
  }

  if (!PREVIEW_ONLY)
    console.log(
      `full backups ${full.map((s) => s.toFixed(2)).join(', ')} s (metadata phase ${metadataSeconds.full.map((s) => s.toFixed(2)).join(', ')} s), tar ${tar.map((s) => s.toFixed(2)).join(', ')} s; load ${loadavg()[0].toFixed(2)}`,
    );
  // The preview is another job's figure: BENCH_PREVIEW=0 leaves it out, and a preview that
  // fails is reported without losing the backups' figures.
  const previews: number[] = [];
  let answer: { count?: number; totalSize?: number; freedBytes?: number } | undefined;
  try {
    for (let round = 0; round < (process.env.BENCH_PREVIEW === '0' ? 0 : RUNS); round++) {
      const run = await measured(preview);
      previews.push(run.seconds);
      growth.preview.push(run.growth);
    }
    if (previews.length > 0) answer = await preview();
  } catch (error) {
    console.log(`retention preview failed: ${(error as Error).message.split('\n')[0]}`);
  }
  if (PREVIEW_ONLY) {
    console.log(
      `retention preview median ${median(previews).toFixed(2)} s (${previews.map((s) => s.toFixed(2)).join(', ')}), goal <= ${GOALS.previewSeconds} s; ${answer?.count} items, ${answer?.totalSize} bytes, ${answer?.freedBytes} freed; peak RSS growth ${mb(Math.max(...growth.preview))} MB; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    return;
  }

  // The first incremental copies everything; the measured one follows 1 % more items.
  await incrementalBackup();
  await stop();
  const more = Math.max(1, Math.round(ITEMS / 100));
  await seed(ITEMS + 1, ITEMS + more);
  await start();
  // The Depot was just started: its database and code are cold, which the full backups' median
  // leaves out (their first round pays it). A metadata-only export elsewhere warms both.
  await exportSystem('warm-up', { exportPath: 'warm-up', excludeContent: true });
  const incremental = await measured(incrementalBackup);
  growth.incremental.push(incremental.growth);

  const fullMedian = median(full);
  const ratio = fullMedian / median(tar);
  const share = incremental.seconds / fullMedian;
  const row = (name: string, value: string, goal: string, met: boolean) =>
    console.log(
      `${name.padEnd(34)} ${value.padStart(14)}   goal ${goal} ${met ? 'met' : 'MISSED'}`,
    );
  console.log(
    `full backup median ${fullMedian.toFixed(2)} s (${full.map((s) => s.toFixed(2)).join(', ')})`,
  );
  console.log(
    `tar median ${median(tar).toFixed(2)} s (${tar.map((s) => s.toFixed(2)).join(', ')})`,
  );
  if (answer)
    console.log(
      `preview: ${answer.count} items, ${answer.totalSize} bytes, ${answer.freedBytes} freed`,
    );
  const meta = (kind: string) => metadataSeconds[kind].map((s) => s.toFixed(2)).join(', ');
  console.log(
    `metadata phase: full ${meta('full')} s; incremental (last is the measured one) ${meta('incremental')} s; warm-up after the restart ${meta('warm-up')} s; measured incremental ${incremental.seconds.toFixed(2)} s`,
  );
  for (const line of phaseLog) console.log(`phases of ${line}`);
  row('full backup / tar', ratio.toFixed(2), `<= ${GOALS.tarRatio}`, ratio <= GOALS.tarRatio);
  row(
    'incremental (1 %) / full',
    `${(share * 100).toFixed(1)} %`,
    `<= 5 %`,
    share <= GOALS.incrementalShare,
  );
  if (previews.length > 0)
    row(
      'retention preview median',
      `${median(previews).toFixed(2)} s`,
      `<= ${GOALS.previewSeconds} s`,
      median(previews) <= GOALS.previewSeconds,
    );
  for (const [job, values] of Object.entries(growth)) {
    if (values.length === 0) continue;
    const peak = Math.max(...values);
    row(
      `peak RSS growth, ${job}`,
      `${mb(peak)} MB`,
      `< ${GOALS.rssMb} MB`,
      peak < GOALS.rssMb * 1024 ** 2,
    );
  }
}

try {
  await main();
} finally {
  await stop();
  // BENCH_KEEP=1 keeps the Depot's home and logs to look at after a failure.
  if (process.env.BENCH_KEEP) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
