import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nobody listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until a started Depot answers ping; fails early if the process has exited. A server
 * that never answers is killed before the error is thrown: the caller has no handle on it
 * yet, and it must not outlive the test.
 */
export async function waitForPing(baseUrl: string, server: ChildProcess, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`Depot exited early with code ${server.exitCode}`);
    const response = await fetch(`${baseUrl}/artifactory/api/system/ping`).catch(() => undefined);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`Depot did not answer ping within ${timeoutMs / 1000} s`);
}

/**
 * Starts the real entry point (server/main.ts) as an operator would: configured by the
 * environment, on loopback. The caller stops it.
 */
export function spawnDepot(
  home: string,
  port: number,
  env: Record<string, string> = {},
  stdio: StdioOptions = 'ignore',
): ChildProcess {
  // The run's bundle when vitest made one (tests/helpers/server-bundle.ts), else the sources.
  const bundle = process.env.DEPOT_TEST_SERVER_BUNDLE;
  const entry = bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'server/main.ts'];
  return spawn(process.execPath, entry, {
    env: {
      ...process.env,
      DEPOT_HOME: home,
      DEPOT_PORT: String(port),
      DEPOT_HOST: '127.0.0.1',
      DEPOT_LOG_STDOUT: 'false',
      ...env,
    },
    stdio,
  });
}
