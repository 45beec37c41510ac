// npm run bench:startup: cold start to the first answered ping on the embedded database, and
// idle RSS after start, for Depot and for verdaccio measured the same way in the same run.
// Goals (issue 2): cold start at most 3 s, idle RSS at most 250 MB. Prints medians and ratios.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureVerdaccio } from './peers.mjs';
import { NODE_FLAGS } from './depot.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_MS = 3000;
const ROOT = resolve(import.meta.dirname, '..');

const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : NaN;
};

async function waitForPing(url, child, deadline) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`no answer from ${url}`);
}

/** Starts one server, times the first good ping, waits idle, reads RSS, stops it. */
async function measure({ command, args, env, pingPath }, home) {
  const port = await freePort();
  const { args: finalArgs, env: finalEnv } = { args: args(port, home), env: env(port, home) };
  const started = performance.now();
  const child = spawn(command, finalArgs, {
    cwd: ROOT,
    env: { ...process.env, ...finalEnv },
    stdio: 'ignore',
  });
  try {
    await waitForPing(`http://127.0.0.1:${port}${pingPath}`, child, Date.now() + 60000);
    const startupMs = performance.now() - started;
    await sleep(IDLE_MS);
    return { startupMs, rss: rssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', done)));
  }
}

/** First start on an empty home (database created), then a restart on the same home. */
async function measureBoth(subject) {
  const home = mkdtempSync(join(tmpdir(), 'depot-bench-'));
  try {
    const first = await measure(subject, home);
    const restart = await measure(subject, home);
    return { first, restart };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const depot = {
  name: 'Depot',
  command: process.execPath,
  args: () => [...NODE_FLAGS, '--enable-source-maps', 'dist/server/main.mjs'],
  env: (port, home) => ({
    DEPOT_PORT: String(port),
    DEPOT_HOME: home,
    DEPOT_LOG_STDOUT: 'false',
    DEPOT_HOST: '127.0.0.1',
  }),
  pingPath: '/artifactory/api/system/ping',
};

function verdaccioPeer() {
  const cli = ensureVerdaccio();
  return {
    name: 'verdaccio 6',
    command: process.execPath,
    args: (port, home) => {
      const config = join(home, 'config.yaml');
      writeFileSync(
        config,
        `storage: ${join(home, 'storage')}\nauth:\n  htpasswd:\n    file: ${join(home, 'htpasswd')}\nuplinks: {}\npackages:\n  '**':\n    access: $all\n    publish: $authenticated\nlog: { type: stdout, format: json, level: error }\n`,
      );
      return [cli, '--listen', `127.0.0.1:${port}`, '--config', config];
    },
    env: () => ({}),
    pingPath: '/-/ping',
  };
}

async function main() {
  // Measure what `npm start` runs: the bundled server.
  execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const subjects = [depot, verdaccioPeer()];
  const keys = ['firstStart', 'firstRss', 'restart', 'restartRss'];
  const results = Object.fromEntries(
    subjects.map((s) => [s.name, Object.fromEntries(keys.map((k) => [k, []]))]),
  );
  // Interleave runs so that machine noise falls on both alike.
  for (let run = 1; run <= RUNS; run++) {
    for (const subject of subjects) {
      const { first, restart } = await measureBoth(subject);
      const r = results[subject.name];
      r.firstStart.push(first.startupMs);
      r.firstRss.push(first.rss);
      r.restart.push(restart.startupMs);
      r.restartRss.push(restart.rss);
      console.log(
        `run ${run} ${subject.name}: first start ${first.startupMs.toFixed(0)} ms (RSS ${first.rss.toFixed(0)} MB), ` +
          `restart ${restart.startupMs.toFixed(0)} ms (RSS ${restart.rss.toFixed(0)} MB)`,
      );
    }
  }
  const d = results.Depot;
  const p = results['verdaccio 6'];
  const row = (label, key, unit, goal) => {
    const value = median(d[key]);
    const peer = median(p[key]);
    console.log(
      `${label.padEnd(34)} ${value.toFixed(0).padStart(6)} ${unit}  goal <= ${goal} ${unit} ${value <= goal ? 'OK  ' : 'OVER'}` +
        `  peer ${peer.toFixed(0).padStart(5)} ${unit}  ratio Depot/peer ${(value / peer).toFixed(2)}`,
    );
  };
  console.log(
    `\nMedians of ${RUNS} runs; the process is started cold each time (nothing cached in memory):`,
  );
  row('first start to first ping', 'firstStart', 'ms', 3000);
  row(`idle RSS ${IDLE_MS / 1000} s after first start`, 'firstRss', 'MB', 250);
  row('restart to first ping', 'restart', 'ms', 3000);
  row(`idle RSS ${IDLE_MS / 1000} s after restart`, 'restartRss', 'MB', 250);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
