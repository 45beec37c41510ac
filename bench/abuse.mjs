// npm run bench:abuse: can one authenticated user stall everyone (issue 22, item 9)? A built
// Depot (as `npm start` runs it, scripts/prepare-start.mjs first) on loopback; a monitor asks
// `GET /artifactory/api/system/ping` (which asks the database) every 20 ms, whether or not
// the one before has answered, with no load and then while each load runs, and prints the
// pings' median and p99 against the no-load figures of the same run. Goal: ping p99 under
// 200 ms under every load. The loads, each the largest request Depot's limits still accept
// (docs/security.md), BENCH_CLIENTS (4) at once, each client over and over:
//   properties  a deployer setting BENCH_PROPERTY_KEYS (5) keys of BENCH_PROPERTY_VALUES (50)
//               values, the 250 one request may set, recursively on a folder of
//               BENCH_FOLDER_FILES (100) files, each client on a folder of its own;
//   aql         a read-only user posting an AQL query of BENCH_AQL_KB (64) KB holding
//               BENCH_AQL_CRITERIA (100) criteria, an `$or` of long name patterns;
//   explode     a deployer PUTting a zip of BENCH_ARCHIVE_ENTRIES (2000) entries with
//               X-Explode-Archive;
//   atomic      the same with X-Explode-Archive-Atomic, BENCH_ATOMIC_ENTRIES (1000) entries.
// Each load runs for BENCH_SECONDS (10) and until its requests in flight end; BENCH_LOADS
// picks some (comma-separated). The figures depend on what else the machine runs: compare
// a load's ping with the no-load ping of the same run. Timing is never a test: the tests
// assert the limits' answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import yazl from 'yazl';
import { startBuiltDepot } from './depot.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SECONDS', 10);
const CLIENTS = env('BENCH_CLIENTS', 4);
const FOLDER_FILES = env('BENCH_FOLDER_FILES', 100);
const PROPERTY_KEYS = env('BENCH_PROPERTY_KEYS', 5);
const PROPERTY_VALUES = env('BENCH_PROPERTY_VALUES', 50);
const AQL_KB = env('BENCH_AQL_KB', 64);
const AQL_CRITERIA = env('BENCH_AQL_CRITERIA', 100);
const ARCHIVE_ENTRIES = env('BENCH_ARCHIVE_ENTRIES', 2000);
const ATOMIC_ENTRIES = env('BENCH_ATOMIC_ENTRIES', 1000);
const LOADS = new Set(
  (process.env.BENCH_LOADS ?? 'properties,aql,explode,atomic').split(',').map((s) => s.trim()),
);
const PING_TIMEOUT_MS = 30_000;
const PING_EVERY_MS = 20;

const ADMIN = 'bench-abuse-admin-1';
const auth = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN_AUTH = auth('admin', ADMIN);
const DEPLOYER_AUTH = auth('deployer', 'deployer-pass-1');
const READER_AUTH = auth('reader', 'reader-pass-1');
const REPO = 'abuse-local';

const work = mkdtempSync(join(tmpdir(), 'depot-bench-abuse-'));
const children = [];

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** One request; a failure to answer at all (fetch gives up after 300 s) is status 0. */
async function call(base, method, path, authorization, body, headers = {}) {
  try {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, ...headers },
      body,
    });
    const text = await answer.text();
    return { status: answer.status, text };
  } catch (error) {
    return { status: 0, text: String(error.cause?.code ?? error.message) };
  }
}

async function expectOk(promise, what) {
  const { status, text } = await promise;
  if (status >= 300) throw new Error(`${what} answered ${status}: ${text.slice(0, 300)}`);
}

/** A zip of `entries` small files, each with content of its own (so each is its own blob). */
function zipOf(entries, tag) {
  const zip = new yazl.ZipFile();
  for (let i = 0; i < entries; i++)
    zip.addBuffer(Buffer.from(`${tag} entry ${i} ${'x'.repeat(64)}\n`), `d${i % 20}/f-${i}.txt`);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (chunk) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

async function setUp(base) {
  const json = { 'content-type': 'application/json' };
  await expectOk(
    call(
      base,
      'PUT',
      `/artifactory/api/repositories/${REPO}`,
      ADMIN_AUTH,
      JSON.stringify({
        rclass: 'local',
        packageType: 'generic',
      }),
      json,
    ),
    'creating the repository',
  );
  for (const name of ['deployer', 'reader'])
    await expectOk(
      call(
        base,
        'PUT',
        `/artifactory/api/security/users/${name}`,
        ADMIN_AUTH,
        JSON.stringify({
          email: `${name}@example.com`,
          password: `${name}-pass-1`,
        }),
        json,
      ),
      `creating ${name}`,
    );
  await expectOk(
    call(
      base,
      'PUT',
      '/artifactory/api/v2/security/permissions/abusers',
      ADMIN_AUTH,
      JSON.stringify({
        name: 'abusers',
        repo: {
          repositories: [REPO],
          actions: { users: { deployer: ['read', 'annotate', 'write', 'delete'] } },
        },
      }),
      json,
    ),
    'granting the deployer',
  );
  // One folder of FOLDER_FILES files per properties client.
  for (let c = 0; c < CLIENTS; c++)
    await expectOk(
      call(
        base,
        'PUT',
        `/artifactory/${REPO}/tree-${c}/seed.zip`,
        ADMIN_AUTH,
        await zipOf(FOLDER_FILES, `tree ${c}`),
        { 'X-Explode-Archive': 'true' },
      ),
      'seeding a folder',
    );
}

/**
 * Pings every PING_EVERY_MS until `done` settles, each timed from when it was due whether or
 * not the one before has answered (a stall of a second is fifty late pings, not one);
 * answers the latencies in milliseconds, sorted.
 */
async function pingsDuring(base, done) {
  const pings = [];
  let running = true;
  done.finally(() => (running = false));
  while (running) {
    const start = performance.now();
    pings.push(
      fetch(`${base}/artifactory/api/system/ping`, { signal: AbortSignal.timeout(PING_TIMEOUT_MS) })
        .then((answer) => answer.text())
        .then(
          () => performance.now() - start,
          () => PING_TIMEOUT_MS,
        ),
    );
    await sleep(PING_EVERY_MS);
  }
  await done;
  return (await Promise.all(pings)).sort((a, b) => a - b);
}

/** CLIENTS loops of `request(client, round)` for SECONDS; answers the statuses seen. */
async function runLoad(request) {
  const statuses = new Map();
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  const durations = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let round = 0; Date.now() < deadline; round++) {
        const begun = performance.now();
        const { status, text } = await request(client, round);
        durations.push(performance.now() - begun);
        const key = status < 300 ? String(status) : `${status} ${text.slice(0, 120)}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    }),
  );
  return {
    statuses,
    requests: durations.length,
    seconds: (performance.now() - started) / 1000,
    durations,
  };
}

function propertyList() {
  const values = Array.from({ length: PROPERTY_VALUES }, (_, v) => `v${v}`).join(',');
  return Array.from({ length: PROPERTY_KEYS }, (_, k) => `key${k}=${values}`).join(';');
}

/**
 * An `$or` of name patterns, AQL_CRITERIA of them (the repository's one more), each long
 * enough that the query is AQL_KB in all: the most criteria and the most text accepted.
 */
function aqlQuery() {
  const head = `items.find({"repo":"${REPO}","$or":[`;
  const tail = ']}).include("name","repo","path")';
  const terms = AQL_CRITERIA - 1;
  const room = AQL_KB * 1024 - head.length - tail.length - terms * 23;
  const padding = Math.max(0, Math.floor(room / terms));
  const term = (i) => `{"name":{"$match":"f-${String(i).padStart(padding, '0')}*"}}`;
  let query = `${head}${Array.from({ length: terms }, (_, i) => term(i)).join(',')}${tail}`;
  while (Buffer.byteLength(query) > AQL_KB * 1024) query = query.replace('"f-0', '"f-');
  return query;
}

const LOAD_DEFINITIONS = {
  properties: {
    describe: () =>
      `properties: ${CLIENTS} clients, ${PROPERTY_KEYS} keys x ${PROPERTY_VALUES} values, recursive on ${FOLDER_FILES} files (${(PROPERTY_KEYS * PROPERTY_VALUES * FOLDER_FILES).toLocaleString('en')} rows a request)`,
    prepare: () => ({ list: encodeURIComponent(propertyList()) }),
    request:
      (base, { list }) =>
      (client) =>
        call(
          base,
          'PUT',
          `/artifactory/api/storage/${REPO}/tree-${client}?properties=${list}&recursive=1`,
          DEPLOYER_AUTH,
        ),
  },
  aql: {
    describe: () =>
      `aql: ${CLIENTS} read-only clients, ${AQL_KB} KB queries of ${AQL_CRITERIA} criteria`,
    prepare: () => ({ query: aqlQuery() }),
    request:
      (base, { query }) =>
      () =>
        call(base, 'POST', '/artifactory/api/search/aql', READER_AUTH, query, {
          'content-type': 'text/plain',
        }),
  },
  explode: {
    describe: () => `explode: ${CLIENTS} clients, zips of ${ARCHIVE_ENTRIES} entries`,
    prepare: async () => ({ zip: await zipOf(ARCHIVE_ENTRIES, 'explode') }),
    request:
      (base, { zip }) =>
      (client, round) =>
        call(
          base,
          'PUT',
          `/artifactory/${REPO}/explode-${client}-${round}/bundle.zip`,
          DEPLOYER_AUTH,
          zip,
          {
            'X-Explode-Archive': 'true',
          },
        ),
  },
  atomic: {
    describe: () => `atomic explode: ${CLIENTS} clients, zips of ${ATOMIC_ENTRIES} entries`,
    prepare: async () => ({ zip: await zipOf(ATOMIC_ENTRIES, 'atomic') }),
    request:
      (base, { zip }) =>
      (client, round) =>
        call(
          base,
          'PUT',
          `/artifactory/${REPO}/atomic-${client}-${round}/bundle.zip`,
          DEPLOYER_AUTH,
          zip,
          {
            'X-Explode-Archive': 'true',
            'X-Explode-Archive-Atomic': 'true',
          },
        ),
  },
};

function line(name, pings, idle) {
  const median = percentile(pings, 0.5);
  const p99 = percentile(pings, 0.99);
  const ratio = idle
    ? ` (x${(median / percentile(idle, 0.5)).toFixed(1)} median, x${(p99 / percentile(idle, 0.99)).toFixed(1)} p99 of no load)`
    : '';
  const goal = idle ? (p99 < 200 ? '  goal met' : '  GOAL MISSED') : '';
  return `${name.padEnd(11)} ping median ${median.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${pings.at(-1).toFixed(1)} ms, ${pings.length} pings${ratio}${goal}`;
}

async function main() {
  execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const port = 17082 + (process.pid % 1000);
  children.push(await startBuiltDepot({ home: join(work, 'depot'), port, adminPassword: ADMIN }));
  const base = `http://127.0.0.1:${port}`;
  console.log(`Seeding ${CLIENTS} folders of ${FOLDER_FILES} files...`);
  await setUp(base);

  const idle = await pingsDuring(base, sleep(Math.min(SECONDS, 5) * 1000));
  const lines = [line('no load', idle)];
  for (const [name, load] of Object.entries(LOAD_DEFINITIONS)) {
    if (!LOADS.has(name)) continue;
    console.log(load.describe());
    const send = load.request(base, await load.prepare());
    const running = runLoad(send);
    const pings = await pingsDuring(base, running);
    const { statuses, requests, seconds, durations } = await running;
    durations.sort((a, b) => a - b);
    console.log(
      `  ${requests} requests in ${seconds.toFixed(1)} s, each median ${(percentile(durations, 0.5) / 1000).toFixed(2)} s; answers: ${[...statuses].map(([k, n]) => `${n} x ${k}`).join('; ')}`,
    );
    lines.push(line(name, pings, idle));
  }
  console.log(`\n${lines.join('\n')}`);
}

/** SIGTERM, and SIGKILL if a server still busy with a load has not ended 20 s later. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if ((await Promise.race([ended, sleep(20_000, 'late')])) === 'late') {
    child.kill('SIGKILL');
    await ended;
  }
}

try {
  await main();
} finally {
  await Promise.all(children.map(stop));
  rmSync(work, { recursive: true, force: true });
}
