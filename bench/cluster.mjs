// npm run bench:cluster: small downloads per second from two Depot nodes behind nginx against
// one (issue 28), on the same cores. Needs PostgreSQL (the npm script runs this under
// scripts/with-postgres.sh), Debian's nginx and wrk. Two built servers (bench/depot.mjs)
// share a scratch database, a filestore and a master key, as docs/cluster.md sets them up;
// nginx balances with docs/cluster.md's configuration (tests/helpers/nginx.ts). In turns,
// BENCH_RUNS rounds (default 3) of 5 s after a 2 s warm-up, wrk (2 threads, 32 connections)
// downloads one 10 KiB file: from node A directly, through nginx to node A alone, and through
// nginx to both. Prints medians, the ratios, and where the CPU time went (each node's and
// nginx's, from /proc, per thousand requests). On a 2-core machine two nodes cannot show
// scale-out: the figure shows what the balancer and a second process cost.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { clusterConfig, startNginxWith } from '../tests/helpers/nginx.ts';
import { startBuiltDepot } from './depot.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PG_URL = process.env.DEPOT_TEST_DATABASE_URL;
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const FILE = '/artifactory/cluster/small.bin';
const work = mkdtempSync(join(tmpdir(), 'depot-bench-cluster-'));
const base = 21000 + Math.floor(Math.random() * 20000);
const ports = { a: base, b: base + 1, nginxOne: base + 2, nginxTwo: base + 3 };
const stops = [];

/** CPU seconds a process has used (user and system), from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The pids of every nginx process (master and workers). */
const nginxPids = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'nginx';
      } catch {
        return false;
      }
    });

function wrk(url, seconds) {
  const out = execFileSync('wrk', [
    '-t2',
    '-c32',
    `-d${seconds}s`,
    '-H',
    `Authorization: ${AUTH}`,
    url,
  ]);
  const text = out.toString();
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)[1]);
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (failed) throw new Error(`${url}: ${failed[1]} failed answers`);
  return rate;
}

/** Requests/s of one side, and the CPU seconds each process spent per 1000 requests. */
function measure(url, pids, seconds) {
  const nginx = nginxPids();
  const before = [...pids.map(cpuSeconds), nginx.reduce((sum, pid) => sum + cpuSeconds(pid), 0)];
  const rate = wrk(url, seconds);
  const after = [...pids.map(cpuSeconds), nginx.reduce((sum, pid) => sum + cpuSeconds(pid), 0)];
  const perThousand = after.map((value, i) => ((value - before[i]) / (rate * seconds)) * 1000);
  return { rate, cpu: perThousand };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function scratchDatabase() {
  const name = `bench_cluster_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  stops.push(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return url.toString();
}

if (!PG_URL) {
  console.log('bench:cluster needs DEPOT_TEST_DATABASE_URL (npm run bench:cluster sets it)');
  process.exit(0);
}
execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
try {
  const shared = {
    DEPOT_DATABASE_URL: await scratchDatabase(),
    DEPOT_FILESTORE_DIR: join(work, 'filestore'),
    DEPOT_MASTER_KEY: 'c4'.repeat(32),
  };
  const node = async (id, port) => {
    const child = await startBuiltDepot({
      home: join(work, id),
      port,
      adminPassword: ADMIN,
      env: { ...shared, DEPOT_NODE_ID: id },
    });
    stops.push(async () => child.kill('SIGTERM'));
    return child;
  };
  const a = await node('node-a', ports.a);
  const b = await node('node-b', ports.b);
  const put = (path, body, type) =>
    fetch(`http://127.0.0.1:${ports.a}${path}`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': type },
      body,
    });
  await put(
    '/artifactory/api/repositories/cluster',
    JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    'application/json',
  );
  const deployed = await put(FILE, Buffer.alloc(10 * 1024, 7), 'application/octet-stream');
  if (deployed.status !== 201) throw new Error(`deploy answered ${deployed.status}`);
  for (const [port, nodes] of [
    [ports.nginxOne, [ports.a]],
    [ports.nginxTwo, [ports.a, ports.b]],
  ]) {
    const nginx = await startNginxWith(
      clusterConfig(port, nodes),
      `http://127.0.0.1:${port}${FILE}`,
    );
    stops.push(nginx.stop);
  }
  const sides = {
    'node A directly': `http://127.0.0.1:${ports.a}${FILE}`,
    'nginx to node A': `http://127.0.0.1:${ports.nginxOne}${FILE}`,
    'nginx to A and B': `http://127.0.0.1:${ports.nginxTwo}${FILE}`,
  };
  const results = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (const url of Object.values(sides)) wrk(url, 2);
  for (let run = 1; run <= RUNS; run++)
    for (const [side, url] of Object.entries(sides))
      results[side].push(measure(url, [a.pid, b.pid], 5));
  console.log(`load: ${loadavg().map((n) => n.toFixed(2))}`);
  const rows = Object.entries(results).map(([side, runs]) => ({
    side,
    'req/s (median)': Math.round(median(runs.map((r) => r.rate))),
    runs: runs.map((r) => Math.round(r.rate)).join(', '),
    'CPU ms/1000 req: node A': Math.round(median(runs.map((r) => r.cpu[0])) * 1000),
    'node B': Math.round(median(runs.map((r) => r.cpu[1])) * 1000),
    nginx: Math.round(median(runs.map((r) => r.cpu[2])) * 1000),
  }));
  console.table(rows);
  const [direct, one, two] = rows.map((row) => row['req/s (median)']);
  console.log(
    `two nodes behind nginx / one node behind nginx: ${(two / one).toFixed(2)}; ` +
      `one behind nginx / direct: ${(one / direct).toFixed(2)}`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
