import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseInUse, lockDataDir } from './data-dir-lock.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(join(tmpdir(), 'depot-lock-')));
const lockFile = () => join(dir, 'depot.pid');
const pretendOwner = (pid: number, host = hostname()) =>
  writeFileSync(lockFile(), JSON.stringify({ pid, host, since: '2026-01-01T00:00:00.000Z' }));

/** A process that has ended: its pid is free (for the moment this test needs). */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the embedded database directory lock', () => {
  it('is held once: a second take in this process is refused until it is given back', () => {
    fresh();
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    expect(() => lockDataDir(dir)).toThrow(EmbeddedDatabaseInUse);
    release();
    expect(existsSync(lockFile())).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses while the process named in it runs, naming it and the way out', async () => {
    fresh();
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      pretendOwner(running.pid!);
      expect(() => lockDataDir(dir)).toThrow(
        new RegExp(`in use by another Depot \\(process ${running.pid} on .*remove ${lockFile()}`),
      );
    } finally {
      running.kill();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    fresh();
    pretendOwner(await endedPid());
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it("takes over our own pid left in the file (a container's pid 1 after a restart)", () => {
    fresh();
    pretendOwner(process.pid);
    lockDataDir(dir)();
  });

  it('refuses a lock of another host: nobody here can tell whether it still runs', () => {
    fresh();
    pretendOwner(1, 'another-host.example');
    expect(() => lockDataDir(dir)).toThrow(/process 1 on another-host\.example/);
  });
});
