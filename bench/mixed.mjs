// npm run bench:mixed: a realistic mix of requests from many connections at once (issue 28),
// against the built server (bench/depot.mjs) on the embedded database and, when
// DEPOT_TEST_DATABASE_URL names a PostgreSQL server (the npm script runs this under
// scripts/with-postgres.sh), on PostgreSQL. Each connection sends one request after another,
// picking its kind by weight: small (1 KiB) and 100 KiB downloads, quick search, AQL, the
// users list, the tree's root and a folder, the repositories list. Prints requests/s, errors
// and p50/p99 per kind and overall. Goal: 0 errors, p99 under 250 ms; Nexus publishes a
// single-node peak of 268 requests/s.
// BENCH_DURATION (seconds, default 60), BENCH_CONNECTIONS (default 64), BENCH_FILES (small
// files, default 500) size a run; BENCH_DATABASES (default "embedded,postgres") picks the sides.
// BENCH_BEFORE names an earlier build's bundle (a copy of dist/server, say dist/before/server/
// main.mjs): each side then measures it and the current build in turns, BENCH_ROUNDS (default
// 1) rounds, for a before/after under the same load.
// The load generator runs in this process, on the same cores as the server: on a 2-core
// machine it takes a share of the CPU the server would otherwise have.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { SERVER_BUNDLE, startBuiltDepot } from './depot.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const FILES = Number(process.env.BENCH_FILES ?? 500);
const LARGE_FILES = 20;
const DATABASES = (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',');
const PG_URL = process.env.DEPOT_TEST_DATABASE_URL;
const BEFORE = process.env.BENCH_BEFORE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const work = mkdtempSync(join(tmpdir(), 'depot-bench-mixed-'));
const FOLDERS = 10;

const pick = (n) => Math.floor(Math.random() * n);
const smallPath = (i) => `/artifactory/mixed/folder-${i % FOLDERS}/small-${i}.bin`;

/** The mix: [kind, weight, request]. Weights follow a CI-heavy instance's traffic. */
const MIX = [
  ['small download', 30, () => ({ method: 'GET', path: smallPath(pick(FILES)) })],
  [
    '100 KiB download',
    15,
    () => ({ method: 'GET', path: `/artifactory/mixed/large/large-${pick(LARGE_FILES)}.bin` }),
  ],
  [
    'quick search',
    10,
    () => ({ method: 'GET', path: `/artifactory/api/search/artifact?name=small-${pick(FILES)}*` }),
  ],
  [
    'AQL',
    10,
    () => ({
      method: 'POST',
      path: '/artifactory/api/search/aql',
      type: 'text/plain',
      body: `items.find({"repo":"mixed","path":"folder-${pick(FOLDERS)}","name":{"$match":"small-${pick(10)}*"}}).include("name","size").limit(20)`,
    }),
  ],
  ['users list', 8, () => ({ method: 'GET', path: '/artifactory/api/security/users' })],
  [
    'tree root',
    9,
    () => ({ method: 'POST', path: '/ui/api/v1/ui/treebrowser', json: { type: 'root' } }),
  ],
  [
    'tree folder',
    10,
    () => ({
      method: 'POST',
      path: '/ui/api/v1/ui/treebrowser',
      json: { type: 'junction', repoKey: 'mixed', path: `folder-${pick(FOLDERS)}` },
    }),
  ],
  ['repositories list', 8, () => ({ method: 'GET', path: '/artifactory/api/repositories' })],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [, weight]) => sum + weight, 0);

function chooseKind() {
  let left = pick(TOTAL_WEIGHT);
  for (const entry of MIX) if ((left -= entry[1]) < 0) return entry;
  return MIX[0];
}

/** One request; answers its status (0 for a failed connection) once the body is read. */
function send(agent, port, { method, path, type, body, json }) {
  const payload = json ? JSON.stringify(json) : body;
  const headers = { authorization: AUTH };
  if (payload !== undefined) {
    headers['content-type'] = json ? 'application/json' : type;
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(payload);
  });
}

async function seed(port) {
  const put = (path, body, type = 'application/octet-stream') =>
    send(undefined, port, { method: 'PUT', path, type, body });
  const repo = await send(undefined, port, {
    method: 'PUT',
    path: '/artifactory/api/repositories/mixed',
    json: { rclass: 'local', packageType: 'generic' },
  });
  if (repo !== 200) throw new Error(`creating the repository answered ${repo}`);
  for (let i = 0; i < FILES; i += 16) {
    const batch = [];
    for (let j = i; j < Math.min(FILES, i + 16); j++)
      batch.push(put(smallPath(j), Buffer.alloc(1024, j % 251)));
    const statuses = await Promise.all(batch);
    if (statuses.some((status) => status !== 201)) throw new Error(`deploys: ${statuses}`);
  }
  for (let i = 0; i < LARGE_FILES; i++)
    await put(`/artifactory/mixed/large/large-${i}.bin`, Buffer.alloc(100 * 1024, i));
  for (let i = 0; i < 20; i++)
    await send(undefined, port, {
      method: 'PUT',
      path: `/artifactory/api/security/users/user-${i}`,
      json: { email: `user-${i}@example.com`, password: `user-pass-${i}-x` },
    });
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;

/** Runs the mix for `seconds` from CONNECTIONS connections; answers the samples by kind. */
async function load(port, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const samples = new Map(MIX.map(([kind]) => [kind, { ms: [], errors: 0 }]));
  const deadline = Date.now() + seconds * 1000;
  const connection = async () => {
    while (Date.now() < deadline) {
      const [kind, , make] = chooseKind();
      const started = process.hrtime.bigint();
      const status = await send(agent, port, make());
      const sample = samples.get(kind);
      sample.ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (status < 200 || status >= 300) sample.errors++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  agent.destroy();
  return samples;
}

function report(side, samples, seconds) {
  const rows = [];
  const all = [];
  let errors = 0;
  for (const [kind, { ms, errors: failed }] of samples) {
    const sorted = [...ms].sort((a, b) => a - b);
    all.push(...ms);
    errors += failed;
    rows.push({ kind, requests: ms.length, errors: failed, ...latencies(sorted) });
  }
  const sorted = all.sort((a, b) => a - b);
  rows.push({ kind: 'overall', requests: all.length, errors, ...latencies(sorted) });
  console.log(
    `\n${side}: ${(all.length / seconds).toFixed(0)} requests/s (Nexus's published single-node peak: 268), ${errors} errors, ${CONNECTIONS} connections, ${seconds} s`,
  );
  console.table(rows);
  const p99 = percentile(sorted, 0.99);
  console.log(`goal: 0 errors, p99 < 250 ms -> ${errors === 0 && p99 < 250 ? 'met' : 'not met'}`);
}

function latencies(sorted) {
  return {
    'p50 ms': Number(percentile(sorted, 0.5).toFixed(1)),
    'p99 ms': Number(percentile(sorted, 0.99).toFixed(1)),
  };
}

/** Each build in turns, ROUNDS rounds, each a fresh Depot (on a fresh database). */
async function measureBuilds(side, onPostgres) {
  const builds = BEFORE
    ? [
        ['before', BEFORE],
        ['after', SERVER_BUNDLE],
      ]
    : [['', SERVER_BUNDLE]];
  for (let round = 1; round <= ROUNDS; round++)
    for (const [name, bundle] of builds) {
      const scratch = onPostgres ? await scratchDatabase() : undefined;
      try {
        const env = scratch ? { DEPOT_DATABASE_URL: scratch.url } : {};
        await measure(`${side}${name ? `, ${name}` : ''}, round ${round}`, env, bundle);
      } finally {
        await scratch?.drop();
      }
    }
}

async function measure(side, env, bundle) {
  const port = 20000 + pick(20000);
  const home = join(work, `depot-${pick(1e9)}`);
  const child = await startBuiltDepot({ home, port, adminPassword: ADMIN, env, bundle });
  try {
    await seed(port);
    await load(port, Math.min(5, DURATION_S)); // warm-up: caches, JIT, connection pools
    report(side, await load(port, DURATION_S), DURATION_S);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(home, { recursive: true, force: true });
  }
}

/** A database of its own on the PostgreSQL server PG_URL names; answers its URL and a drop. */
async function scratchDatabase() {
  const name = `bench_mixed_${process.pid}_${pick(1e9)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

// The server as `npm start` runs it: the console built if missing, the server bundled.
execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
try {
  console.log(`load: ${loadavg().map((n) => n.toFixed(2))}`);
  if (DATABASES.includes('embedded')) await measureBuilds('embedded database', false);
  if (DATABASES.includes('postgres')) {
    if (PG_URL) await measureBuilds('PostgreSQL', true);
    else console.log('\nPostgreSQL: skipped, DEPOT_TEST_DATABASE_URL is not set');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
