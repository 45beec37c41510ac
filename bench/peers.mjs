// Peers the benchmarks measure in the same run. They are installed on first use into
// bench/.peers (git-ignored) from the npm registry, never committed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const PEERS_DIR = resolve(import.meta.dirname, '.peers');

/** Installs verdaccio 6 (the self-hosted npm registry many teams run) and returns its CLI. */
export function ensureVerdaccio() {
  const cli = join(PEERS_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  if (existsSync(cli)) return cli;
  mkdirSync(PEERS_DIR, { recursive: true });
  writeFileSync(
    join(PEERS_DIR, 'package.json'),
    JSON.stringify({
      private: true,
      dependencies: { verdaccio: '^6', autocannon: '^8' },
      // The registry mirror lacks a dist-tag verdaccio 6 needs; this pins what works.
      overrides: { 'node-fetch': '2.7.0' },
    }),
  );
  console.log('Installing verdaccio 6 as the benchmark peer (once)...');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel', 'error'], {
    cwd: PEERS_DIR,
    stdio: 'inherit',
  });
  return cli;
}

/** autocannon, the HTTP load generator the figures name; installed beside verdaccio. */
export async function ensureAutocannon() {
  const entry = join(PEERS_DIR, 'node_modules', 'autocannon', 'autocannon.js');
  if (!existsSync(entry)) {
    ensureVerdaccio();
    console.log('Installing autocannon into the benchmark peers (once)...');
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel', 'error', 'autocannon@^8'],
      {
        cwd: PEERS_DIR,
        stdio: 'inherit',
      },
    );
  }
  return (await import(entry)).default;
}
