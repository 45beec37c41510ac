import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_FLAGS, startBuiltDepot } from '../bench/depot.mjs';

// A benchmark's Depot must be its own: one whose port another server (another benchmark's
// Depot) already answers would send every request there, and they break when that one stops.
describe('a benchmark starting its Depot', () => {
  const work = mkdtempSync(join(tmpdir(), 'depot-bench-depot-'));
  const other = createServer((_, response) => response.end('OK'));
  afterEach(async () => {
    await new Promise((resolve) => other.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  it('refuses a port another server answers, before starting anything', async () => {
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as { port: number };
    const stderrFile = join(work, 'stderr.log');
    await expect(
      startBuiltDepot({ home: join(work, 'home'), port, adminPassword: 'x', stderrFile }),
    ).rejects.toThrow(`port ${port} is answered by another server already`);
    expect(existsSync(stderrFile)).toBe(false); // no child was started to write there
  });

  // The benchmarks measure the server as `npm start` runs it: the same Node flags, which a
  // Node that no longer knows one would refuse to start with ("bad option").
  it('starts the server with the Node flags of npm start, which this Node accepts', () => {
    const start = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string;
    const serverCommand = start.split('&&').at(-1)!.trim().split(/\s+/);
    expect(serverCommand).toEqual([
      'node',
      ...NODE_FLAGS,
      '--enable-source-maps',
      'dist/server/main.mjs',
    ]);
    expect(
      execFileSync(process.execPath, [...NODE_FLAGS, '-e', 'console.log("ok")'], {
        encoding: 'utf8',
      }),
    ).toBe('ok\n');
  });
});
