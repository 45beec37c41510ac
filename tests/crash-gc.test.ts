import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { craftZip } from './helpers/archives.ts';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';

/**
 * Garbage collection killed with SIGKILL half-way: afterwards every file still answers with
 * its content (no row points at a missing blob), and a second run finishes the job.
 */
const home = mkdtempSync(join(tmpdir(), 'depot-crash-gc-'));
const auth = `Basic ${Buffer.from('admin:crash-admin-1').toString('base64')}`;
const KEPT = 40;
const DROPPED = 1200;
let server: ChildProcess | undefined;
let base = '';

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

async function startServer(port: number) {
  // No grace period: every unreferenced blob is a candidate at once.
  const child = spawnDepot(home, port, {
    DEPOT_ADMIN_PASSWORD: 'crash-admin-1',
    DEPOT_GC_GRACE_SECONDS: '0',
  });
  await waitForPing(`http://127.0.0.1:${port}`, child);
  return child;
}

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { authorization: auth, ...init.headers } });

/** Blob files in the filestore's shard folders (ab/cd/<sha256>). */
function blobFiles(): number {
  const root = join(home, 'filestore');
  let count = 0;
  for (const first of readdirSync(root).filter((name) => name !== '_tmp')) {
    for (const second of readdirSync(join(root, first))) {
      count += readdirSync(join(root, first, second)).length;
    }
  }
  return count;
}

/**
 * Deploys `count` small files under `prefix` in one exploded zip: one request instead of
 * `count`, so the time goes to the collection under test, not to the uploads.
 */
async function deployAll(prefix: string, count: number) {
  const entries = Array.from({ length: count }, (_, i) => ({
    name: `file-${i}.txt`,
    data: Buffer.from(`content of ${prefix}/file-${i}.txt`),
  }));
  const response = await call(`/artifactory/gc-local/${prefix}/files.zip`, {
    method: 'PUT',
    headers: { 'x-explode-archive': 'true' },
    body: new Uint8Array(craftZip(entries)),
  });
  expect(response.status).toBe(201);
  expect((await response.json()).files).toBe(count);
}

/** Kills the server once the running collection has removed some blobs but not all. */
async function killMidway(before: number): Promise<number> {
  for (;;) {
    const now = blobFiles();
    if (now <= before - 20) {
      server!.kill('SIGKILL');
      await new Promise((resolve) => server!.once('exit', resolve));
      return blobFiles();
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('a crash in the middle of garbage collection', () => {
  it('leaves no file pointing at a missing blob; a second run frees the rest', async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServer(port);
    const created = await call('/artifactory/api/repositories/gc-local', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(created.status).toBe(200);
    await deployAll('keep', KEPT);
    await deployAll('drop', DROPPED);
    expect((await call('/artifactory/gc-local/drop', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/artifactory/api/trash/empty', { method: 'POST' })).status).toBe(200);
    expect(blobFiles()).toBe(KEPT + DROPPED);

    const collection = call('/ui/api/v1/ui/maintenance/garbageCollection', {
      method: 'POST',
    }).catch(() => undefined); // the server dies under it: expected
    const left = await killMidway(KEPT + DROPPED);
    await collection;
    // Killed while it ran: some unreferenced blobs are gone and some are still there.
    expect(left).toBeGreaterThan(KEPT);
    expect(left).toBeLessThan(KEPT + DROPPED);

    server = await startServer(port);
    for (let i = 0; i < KEPT; i++) {
      const response = await call(`/artifactory/gc-local/keep/file-${i}.txt`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(`content of keep/file-${i}.txt`);
    }
    const again = await call('/ui/api/v1/ui/maintenance/garbageCollection', { method: 'POST' });
    expect(again.status).toBe(200);
    expect(blobFiles()).toBe(KEPT);
    const info = await (await call('/artifactory/api/storageinfo')).json();
    expect(info.binariesSummary.binariesCount).toBe(String(KEPT));

    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;
  }, 180000);
});
