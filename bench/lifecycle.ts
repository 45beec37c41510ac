// npm run bench:lifecycle: backups and the retention preview at scale (issue 29). A Depot
// (the built server, a child process on the embedded database) whose repository holds
// BENCH_ITEMS files (1,000,000 by default) over BENCH_BYTES bytes (10 GB) of sparse binaries,
// seeded in bulk through the same tables a deploy writes (no upload per item). In the same run:
//   full backup (POST /artifactory/api/export/system) against `tar` of the same filestore,
//     BENCH_RUNS alternating rounds, medians      ratio goal <= 1.5 (also printed against
//     `tar` then `sync` of its archive; the filestore is read once before, untimed:
//     BENCH_WARM=0 leaves that out)
//   incremental backup after 1 % more items       goal <= 5 % of the full backup's time
//   retention preview choosing every item          goal <= 2 s
//   peak RSS growth of the Depot child during each job (polled from /proc)   goal < 100 MB
// BENCH_ITEMS, BENCH_BYTES and BENCH_RUNS (default 3) scale it down for a quick look;
// BENCH_ONLY=preview measures the retention preview alone (no sparse files, no backups):
// BENCH_RUNS calls in a row (the first is the first after the seed), then BENCH_COLD_ROUNDS
// (default 3) cold calls, each the first of a restarted Depot whose database files were
// dropped from the page cache (as a large write leaves them). BENCH_BUILDS builds (1,000 with
// BENCH_ONLY=preview, else none by default), each listing BENCH_BUILD_FILES (100) of the
// items by checksum, are published over REST first: the preview must leave out what a kept
// build needs, and the items they list are left out of its figures.
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { ftruncateSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../server/db/database.ts';
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
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 3);
const BUILDS = Number(process.env.BENCH_BUILDS ?? (PREVIEW_ONLY ? 1000 : 0));
const BUILD_FILES = Number(process.env.BENCH_BUILD_FILES ?? 100);
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

/** The files under `dir` of at least `minBytes`, recursively. */
function filesUnder(dir: string, minBytes: number): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => statSync(file).size >= minBytes);
}

/**
 * Drops the database's files (those of 1 MB or more: the tables and indexes) from the page
 * cache, as a large write (a backup, a bulk import) leaves them: the next read comes from the
 * disk. `dd iflag=nocache count=0` asks the kernel for that file alone (posix_fadvise
 * DONTNEED), with no root and no other process's cache touched; clean pages only, so the
 * files are synced first.
 */
function evictDatabaseFromPageCache() {
  const files = filesUnder(join(home, 'db'), 1024 ** 2);
  execFileSync('sync', files);
  for (const file of files)
    execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** A seeded item's content hash: md5 as the database writes it (`md5(i::text)`), twice. */
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const seededSha256 = (i: number) => md5(String(i)) + md5(String(-i));
/** A seeded item's other checksums, as the seed writes them (`insertBlobs`). */
const seededChecksums = (i: number) => ({
  sha1: md5(String(i)) + md5(String(i + 7)).slice(0, 8),
  sha256: seededSha256(i),
  md5: md5(String(i * 3)),
});

/**
 * Publishes BUILDS builds over REST (PUT /artifactory/api/build), each listing BUILD_FILES of
 * the seeded items spread over all of them: half as module artifacts with every checksum, half
 * as dependencies with SHA-1 and MD5 only (as older build-info writes them), so that the
 * preview's list of what kept builds need is read both by SHA-256 and through the blobs'
 * SHA-1. Each item is listed at most once.
 */
async function publishBuilds() {
  const started = performance.now();
  const stride = Math.max(1, Math.floor(ITEMS / (BUILDS * BUILD_FILES)));
  let item = 1;
  const next = () => {
    const listed = Math.min(item, ITEMS);
    item += stride;
    return listed;
  };
  for (let build = 1; build <= BUILDS; build++) {
    const artifacts = Array.from({ length: BUILD_FILES >> 1 }, () => {
      const i = next();
      return { type: 'bin', name: `item-${i}.bin`, ...seededChecksums(i) };
    });
    const dependencies = Array.from({ length: BUILD_FILES - (BUILD_FILES >> 1) }, () => {
      const { sha1, md5: md5sum } = seededChecksums(next());
      return { type: 'bin', id: `org.bench:dep-${sha1.slice(0, 8)}:1.0`, sha1, md5: md5sum };
    });
    await call('PUT', '/artifactory/api/build', {
      version: '1.0.1',
      name: `bench-build-${build % 10}`,
      number: String(build),
      type: 'GENERIC',
      started: new Date(Date.now() - build * 1000).toISOString().replace('Z', '+0000'),
      modules: [{ id: `org.bench:module-${build}:1.0`, artifacts, dependencies }],
    });
  }
  console.log(
    `published ${BUILDS} builds listing ${BUILDS * BUILD_FILES} items in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * A bulk seed's session: it writes as a replica does (no foreign-key checks or triggers, which
 * looked every file's content up in `blobs` one row at a time; the rows are consistent by
 * construction), and with room to build indexes in memory.
 */
async function bulkSession(db: Database, work: (session: Database) => Promise<void>) {
  await db.connection().execute(async (session) => {
    await sql`set session_replication_role = replica`.execute(session);
    await sql`set maintenance_work_mem = '64MB'`.execute(session);
    try {
      await work(session);
    } finally {
      await sql`reset session_replication_role`.execute(session);
      await sql`reset maintenance_work_mem`.execute(session);
    }
  });
}

/**
 * Runs `fill` with the table's indexes that back no constraint dropped, and builds them again
 * after (one sort each). Inserting a million rows into half a dozen B-trees in random order
 * through the embedded database's 8 MB of shared buffers took more than ten minutes before
 * the first file was written (the first run at the issue's size, 2026-11-27).
 */
async function withoutPlainIndexes(session: Database, table: string, fill: () => Promise<void>) {
  const { rows } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = ${table}
       and not exists (select 1 from pg_constraint c
                        where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`.execute(
    session,
  );
  for (const { name } of rows) await sql`drop index ${sql.id(name)}`.execute(session);
  try {
    await fill();
  } finally {
    for (const { definition } of rows) await sql.raw(definition).execute(session);
  }
}

/**
 * Items `from`..`to` (1-based): their blobs (distinct fake checksums: nothing here reads
 * content by its hash), the file rows, and a sparse file of each blob's size in the filestore.
 * The rows go in key order (blobs by SHA-256, files by path), so that the B-trees kept while
 * inserting (the constraints') grow at their right edge; the first batch builds the other
 * indexes after its rows are in.
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
    const insertBlobs = (session: Database) =>
      sql`insert into blobs (sha256, sha1, md5, size)
        select md5(i::text) || md5((-i)::text), md5(i::text) || left(md5((i + 7)::text), 8),
               md5((i * 3)::text), ${size}::bigint
        from generate_series(${from}::int, ${to}::int) as i
        order by md5(i::text) || md5((-i)::text) collate "C"`.execute(session);
    const insertNodes = (session: Database) =>
      sql`insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
                             created_at, created_by, modified_at, modified_by)
        select ${id}, 'd-' || (i % ${FOLDERS} + 1) || '/item-' || i || '.bin', 'd-' || (i % ${FOLDERS} + 1),
               'item-' || i || '.bin', false, md5(i::text) || md5((-i)::text), ${size}::bigint,
               now() - interval '400 days', 'seed', now() - interval '400 days', 'seed'
        from generate_series(${from}::int, ${to}::int) as i
        order by 'd-' || (i % ${FOLDERS} + 1) || '/item-' || i || '.bin'`.execute(session);
    await bulkSession(db, async (session) => {
      if (from === 1)
        await sql`insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
          select ${id}, 'd-' || d, '', 'd-' || d, true, 0, 'seed', 'seed'
          from generate_series(1, ${FOLDERS}::int) as d`.execute(session);
      const bulk = from === 1 && to - from > 10_000;
      const timed = async (what: string, work: () => Promise<unknown>) => {
        const started = performance.now();
        await work();
        console.log(`  seed: ${what} ${((performance.now() - started) / 1000).toFixed(1)} s`);
      };
      await timed('blobs', () =>
        bulk
          ? withoutPlainIndexes(session, 'blobs', () => insertBlobs(session).then())
          : insertBlobs(session),
      );
      await timed('files', () =>
        bulk
          ? withoutPlainIndexes(session, 'nodes', () => insertNodes(session).then())
          : insertNodes(session),
      );
      // What the embedded database's upkeep job (docs/maintenance.md) gives a running Depot
      // within ten minutes: statistics, and pages marked all-visible.
      await timed('vacuum', () => sql`vacuum (analyze)`.execute(session));
    });
    if (PREVIEW_ONLY) return config.filestoreDir;
    const started = performance.now();
    const made = new Set<string>();
    for (let i = from; i <= to; i += 1) {
      const sha256 = seededSha256(i);
      const dir = join(config.filestoreDir, sha256.slice(0, 2), sha256.slice(2, 4));
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      const fd = openSync(join(dir, sha256), 'a');
      ftruncateSync(fd, size);
      closeSync(fd);
    }
    console.log(`  seed: sparse files ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
  const archive = join(backups, `tar-${round}.tar`);
  const started = performance.now();
  await promisify(execFile)('tar', ['-cf', archive, '-C', filestore, '.']);
  const tar = (performance.now() - started) / 1000;
  // The fair peer of a backup, which says it is done only once its pack is on disk: `tar`
  // followed by flushing its archive (docs/backup.md, "Figures").
  await promisify(execFile)('sync', ['-d', archive]);
  return { tar, tarSync: (performance.now() - started) / 1000 };
}

/**
 * Reads every file of the filestore once, untimed, before the first round: the first reader
 * of a just seeded filestore pays for filling the page cache (the sparse files' pages are
 * made on the first read), which made whichever of the backup and `tar` came first pay for
 * both (docs/backup.md, "Seventh round"). `tar` writes to a pipe here (GNU tar skips reading
 * the files when its archive is /dev/null).
 */
async function warmFilestore(filestore: string) {
  const started = performance.now();
  await promisify(execFile)('sh', ['-c', 'tar -cf - -C "$0" . | wc -c > /dev/null', filestore]);
  console.log(
    `filestore read once (untimed warm-up) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
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
  if (BUILDS > 0) await publishBuilds();

  const full: number[] = [];
  const tar: number[] = [];
  const tarSync: number[] = [];
  if (!PREVIEW_ONLY && process.env.BENCH_WARM !== '0') await warmFilestore(filestore);
  const growth: Record<string, number[]> = { full: [], incremental: [], preview: [] };
  for (let round = 0; round < (PREVIEW_ONLY ? 0 : RUNS); round++) {
    const backupFirst = round % 2 === 0;
    const peer = async () => {
      const timed = await tarOf(filestore, round);
      tar.push(timed.tar);
      tarSync.push(timed.tarSync);
    };
    if (!backupFirst) await peer();
    const backup = await measured(() => fullBackup(round));
    full.push(backup.seconds);
    growth.full.push(backup.growth);
    if (backupFirst) await peer();
    rmSync(join(backups, `full-${round}`), { recursive: true, force: true });
    rmSync(join(backups, `tar-${round}.tar`), { force: true });
  }

  if (!PREVIEW_ONLY)
    console.log(
      `full backups ${full.map((s) => s.toFixed(2)).join(', ')} s (metadata phase ${metadataSeconds.full.map((s) => s.toFixed(2)).join(', ')} s), tar ${tar.map((s) => s.toFixed(2)).join(', ')} s, tar + sync ${tarSync.map((s) => s.toFixed(2)).join(', ')} s; load ${loadavg()[0].toFixed(2)}`,
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
    const cold: number[] = [];
    for (let round = 0; round < (previews.length > 0 ? COLD_ROUNDS : 0); round++) {
      await stop();
      evictDatabaseFromPageCache();
      await start();
      const run = await measured(preview);
      cold.push(run.seconds);
      growth.preview.push(run.growth);
    }
    if (cold.length > 0)
      console.log(
        `retention preview cold (a restarted Depot, its database out of the page cache): median ${median(cold).toFixed(2)} s (${cold.map((s) => s.toFixed(2)).join(', ')})`,
      );
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
  const syncRatio = fullMedian / median(tarSync);
  const share = incremental.seconds / fullMedian;
  const row = (name: string, value: string, goal: string, met: boolean) =>
    console.log(
      `${name.padEnd(34)} ${value.padStart(14)}   goal ${goal} ${met ? 'met' : 'MISSED'}`,
    );
  console.log(
    `full backup median ${fullMedian.toFixed(2)} s (${full.map((s) => s.toFixed(2)).join(', ')})`,
  );
  console.log(
    `tar median ${median(tar).toFixed(2)} s (${tar.map((s) => s.toFixed(2)).join(', ')}); tar + sync median ${median(tarSync).toFixed(2)} s (${tarSync.map((s) => s.toFixed(2)).join(', ')})`,
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
    'full backup / (tar + sync)',
    syncRatio.toFixed(2),
    `<= ${GOALS.tarRatio}`,
    syncRatio <= GOALS.tarRatio,
  );
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
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
