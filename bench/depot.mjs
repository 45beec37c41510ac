// The Depot the benchmarks measure: the built server (dist/server/main.mjs, as `npm start`
// runs it), on loopback, started and waited for the same way by every benchmark.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Node's flags in package.json's start script. V8 grows the young generation to 2 x 16 MiB
 * during start-up's burst of allocation and keeps it: capped at 2 x 4 MiB, the idle server
 * holds some 20 MB less. V8's background threads each keep the malloc arena they compiled
 * PGlite's WebAssembly in: with one thread, some 25 MB less. Neither changes the 10 KiB
 * download rate. The old generation may grow by half its live size between two full
 * collections, not by V8's own factor of up to four: a backup's garbage no longer piles up
 * to some 100 MB before it is collected (docs/architecture.md, docs/backup.md).
 */
export const NODE_FLAGS = [
  '--max-semi-space-size=4',
  '--v8-pool-size=1',
  '--heap-growing-percent=50',
];

/** More flags for the measured server, to profile it (`BENCH_NODE_FLAGS='--cpu-prof'`). */
const EXTRA_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/** The bundle measured; a benchmark may measure another build beside it (bench/mixed.mjs). */
export const SERVER_BUNDLE = 'dist/server/main.mjs';

/**
 * Starts the built server on `port` with `home` (and `env`'s variables besides); answers the
 * child once it answers ping, within `waitSeconds` (a home seeded with a million items opens
 * slower than an empty one). `stderrFile` keeps what the child writes to stderr (a crash's
 * stack), appended.
 */
export async function startBuiltDepot({
  home,
  port,
  adminPassword,
  env = {},
  bundle = SERVER_BUNDLE,
  waitSeconds = 120,
  stderrFile,
}) {
  // A server already answering there (another benchmark's) would answer for this one: its
  // requests would go to the wrong Depot and break when that one stops.
  const taken = await fetch(`http://127.0.0.1:${port}/artifactory/api/system/ping`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is answered by another server already`);
  const stderr = stderrFile ? openSync(stderrFile, 'a') : 'ignore';
  const child = spawn(process.execPath, [...NODE_FLAGS, ...EXTRA_FLAGS, bundle], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEPOT_HOME: home,
      DEPOT_PORT: String(port),
      DEPOT_HOST: '127.0.0.1',
      DEPOT_ADMIN_PASSWORD: adminPassword,
      DEPOT_LOG_STDOUT: 'false',
      DEPOT_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', stderr],
  });
  if (typeof stderr === 'number') closeSync(stderr);
  // Up to 2 minutes by default: a machine shared by several benchmarks starts slowly.
  for (let i = 0; i < waitSeconds * 10; i++) {
    const answer = await fetch(`http://127.0.0.1:${port}/artifactory/api/system/ping`).catch(
      () => undefined,
    );
    if (answer?.ok) return child;
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  child.kill('SIGTERM');
  throw new Error('Depot did not start');
}
