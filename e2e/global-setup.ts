import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function waitForPing(baseUrl: string, server: ChildProcess) {
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`Depot exited early with code ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/artifactory/api/system/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Depot did not answer ping within 60 s');
}

/**
 * Starts a real Depot on a fresh home with the default admin password (expired), so the
 * tests see what a newcomer sees. Stopped and removed after the run, even on failure.
 */
export default async function setup(project: TestProject) {
  if (!existsSync('dist/ui/index.html')) throw new Error('Build the console first: npm run build');
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('Install Debian chromium: apt-get install chromium');
  const home = mkdtempSync(join(tmpdir(), 'depot-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DEPOT_HOME: home,
      DEPOT_PORT: String(port),
      DEPOT_HOST: '127.0.0.1',
      DEPOT_LOG_STDOUT: 'false',
      DEPOT_SERVER_NAME: 'Depot E2E',
      DEPOT_ADMIN_PASSWORD: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitForPing(baseUrl, server);
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  return stop;
}
