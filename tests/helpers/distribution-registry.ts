import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';

/** Debian's `docker-registry` (the CNCF distribution registry) on loopback, storage in a temp dir. */
export interface DistributionRegistry {
  /** `127.0.0.1:<port>`, as image names and skopeo's `docker://` addresses write it. */
  host: string;
  base: string;
  /** The registry's process id (benchmarks read its CPU time). */
  pid: number;
  /** Stops the registry (its storage stays until `remove`). */
  stop(): Promise<void>;
  /** Stops it and removes its storage. */
  remove(): Promise<void>;
}

const STARTUP_DEADLINE_MS = 15_000;

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts a registry that answers anonymous pushes and pulls, and waits until `/v2/` answers. */
export async function startDistributionRegistry(): Promise<DistributionRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'depot-distribution-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'storage')}`,
      'http:',
      `  addr: ${host}`,
      '',
    ].join('\n'),
  );
  const child = spawn('docker-registry', ['serve', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const remove = async () => {
    await stopped(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    const answered = await fetch(`http://${host}/v2/`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await remove();
      throw new Error(`docker-registry did not start:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { host, base: `http://${host}`, pid: child.pid!, stop: () => stopped(child), remove };
}
