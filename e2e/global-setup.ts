import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, waitForPing } from '../tests/helpers/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
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
