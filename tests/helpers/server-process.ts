import type { ChildProcess } from 'node:child_process';
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

/** Waits until a started Depot answers ping; fails early if the process has exited. */
export async function waitForPing(baseUrl: string, server: ChildProcess, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`Depot exited early with code ${server.exitCode}`);
    const response = await fetch(`${baseUrl}/artifactory/api/system/ping`).catch(() => undefined);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Depot did not answer ping within ${timeoutMs / 1000} s`);
}
