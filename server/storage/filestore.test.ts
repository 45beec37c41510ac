import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Filestore } from './filestore.ts';

/** The filestore's temp files on a filestore several nodes share (docs/cluster.md). */
const root = mkdtempSync(join(tmpdir(), 'depot-filestore-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function until(check: () => boolean) {
  const deadline = Date.now() + 10000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('temp files on a shared filestore', () => {
  it("leaves another node's upload in progress when a node starts, and sweeps its own leftovers", async () => {
    const receiving = new Filestore(root, 'node-a');
    const upload = new PassThrough();
    const staging = receiving.stage(upload);
    upload.write('first half, ');
    await until(() => readdirSync(receiving.tmpDir).length === 1);
    const inProgress = readdirSync(receiving.tmpDir);
    // The other node crashed earlier, leaving a temp file of its own, and starts again.
    const restarted = new Filestore(root, 'node-b');
    writeFileSync(join(restarted.tmpDir, 'node-b~1-left-by-a-crash'), 'partial');
    expect(restarted.sweepTemp()).toBe(1);
    expect(readdirSync(restarted.tmpDir)).toEqual(inProgress);
    upload.end('second half');
    const staged = await staging;
    expect(readFileSync(staged.tmpPath, 'utf8')).toBe('first half, second half');
  });
});
