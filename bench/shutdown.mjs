// npm run bench:shutdown: SIGTERM under load, restart after restart, on one DEPOT_HOME.
// Each round starts the server, puts it under uploads (8 clients, 64 KiB to 1 MiB each, every
// other one deleted again for good), a garbage-collection loop (Run Now, grace 0) and, with
// BENCH_SLOW_UPLOAD=1, one upload that streams far longer than the grace period; then sends
// SIGTERM and times the exit. After the last round it checks that every acknowledged upload
// of every round is there with its checksum. Prints each round's time to exit and status.
// BENCH_RESTARTS (default 10) rounds; DEPOT_SHUTDOWN_GRACE_SECONDS as the server reads it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(import.meta.dirname, '..');
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 10);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 4000);
const SLOW_UPLOAD = process.env.BENCH_SLOW_UPLOAD === '1';
const AUTH = `Basic ${Buffer.from('admin:bench-admin-1').toString('base64')}`;
const home = mkdtempSync(join(tmpdir(), 'depot-bench-shutdown-'));
const port = 41000 + Math.floor(Math.random() * 2000);
const sha256 = (body) => createHash('sha256').update(body).digest('hex');

async function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEPOT_HOME: home,
      DEPOT_PORT: String(port),
      DEPOT_HOST: '127.0.0.1',
      DEPOT_ADMIN_PASSWORD: 'bench-admin-1',
      DEPOT_LOG_STDOUT: 'false',
      DEPOT_GC_GRACE_SECONDS: '0',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 1200; i++) {
    const answer = await fetch(`http://127.0.0.1:${port}/artifactory/api/system/ping`).catch(
      () => undefined,
    );
    if (answer?.ok) return child;
    await sleep(100);
  }
  throw new Error('Depot did not start');
}

function send(agent, method, path, body, type) {
  return new Promise((resolve) => {
    const headers = { authorization: AUTH };
    if (body) headers['content-length'] = body.length;
    if (type) headers['content-type'] = type;
    const sent = request({ agent, host: '127.0.0.1', port, method, path, headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode));
      answer.on('error', () => resolve(0));
    });
    sent.on('error', () => resolve(0));
    sent.end(body);
  });
}

function slowUpload(round) {
  const upload = request({
    host: '127.0.0.1',
    port,
    method: 'PUT',
    path: `/artifactory/gen/slow/r${round}.bin`,
    headers: { authorization: AUTH, 'content-length': 1024 * 1024 * 1024 },
  });
  upload.on('error', () => undefined);
  const timer = setInterval(() => upload.write(Buffer.alloc(256 * 1024)), 100);
  upload.on('close', () => clearInterval(timer));
}

const acknowledged = new Map();
const rounds = [];
let next = 0;
for (let round = 0; round < RESTARTS; round++) {
  const server = await start();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  if (round === 0) {
    const json = 'application/json';
    const repo = JSON.stringify({ rclass: 'local', packageType: 'generic' });
    await send(agent, 'PUT', '/artifactory/api/repositories/gen', Buffer.from(repo), json);
    await send(agent, 'PUT', '/ui/api/v1/ui/trashcan', Buffer.from('{"enabled":false}'), json);
  }
  let loading = true;
  const uploader = async () => {
    while (loading) {
      const n = next++;
      const body = Buffer.alloc(64 * 1024 + ((n * 7919) % (960 * 1024)), n % 251);
      const path = `/artifactory/gen/r${round}/f${n}.bin`;
      if ((await send(agent, 'PUT', path, body)) !== 201) continue;
      if (n % 2 === 0) await send(agent, 'DELETE', path);
      else acknowledged.set(path, sha256(body));
    }
  };
  const collector = async () => {
    while (loading) {
      await send(agent, 'POST', '/ui/api/v1/ui/maintenance/garbageCollection');
      await sleep(20);
    }
  };
  const load = [...Array.from({ length: 8 }, uploader), collector()];
  if (SLOW_UPLOAD) slowUpload(round);
  await sleep(LOAD_MS);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const sent = process.hrtime.bigint();
  server.kill('SIGTERM');
  const status = await exited;
  const seconds = Number(process.hrtime.bigint() - sent) / 1e9;
  loading = false;
  await Promise.all(load);
  agent.destroy();
  rounds.push({ round, seconds: Number(seconds.toFixed(2)), status });
  console.log(`round ${round}: exit ${status} after ${seconds.toFixed(2)} s`);
}

const server = await start();
let missing = 0;
for (const [path, checksum] of acknowledged) {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { authorization: AUTH },
  });
  const body = Buffer.from(await answer.arrayBuffer());
  if (answer.status !== 200 || sha256(body) !== checksum) missing += 1;
}
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(home, { recursive: true, force: true });
const times = rounds.map((r) => r.seconds).sort((a, b) => a - b);
console.log(
  JSON.stringify({
    restarts: RESTARTS,
    slowUpload: SLOW_UPLOAD,
    exitStatuses: [...new Set(rounds.map((r) => r.status))],
    secondsToExit: {
      min: times[0],
      median: times[Math.floor(times.length / 2)],
      max: times.at(-1),
    },
    acknowledgedUploads: acknowledged.size,
    lostOrChanged: missing,
  }),
);
