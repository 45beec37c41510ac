import { createServer } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBuiltDepot } from '../bench/depot.mjs';

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
});
