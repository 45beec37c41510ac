import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';

const home = mkdtempSync(join(tmpdir(), 'depot-crash-'));
const auth = `Basic ${Buffer.from('admin:crash-admin-1').toString('base64')}`;
let server: ChildProcess | undefined;

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

async function startServer(port: number) {
  const child = spawnDepot(home, port, { DEPOT_ADMIN_PASSWORD: 'crash-admin-1' });
  await waitForPing(`http://127.0.0.1:${port}`, child);
  return child;
}

function filestoreEntries() {
  const root = join(home, 'filestore');
  return {
    blobs: readdirSync(root).filter((name) => name !== '_tmp'),
    temp: readdirSync(join(root, '_tmp')),
  };
}

/** Sends `total` bytes slowly enough to be killed halfway; resolves when `sent` bytes went out. */
function startSlowUpload(port: number, path: string, total: number, killAt: number): Promise<void> {
  return new Promise((reachedKillPoint) => {
    const upload = request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path,
      headers: { authorization: auth, 'content-length': total },
    });
    upload.on('error', () => undefined); // the server dies under it: expected
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (sent >= killAt) return reachedKillPoint();
        if (!upload.write(chunk)) return upload.once('drain', pump);
      }
    };
    pump();
  });
}

describe('a crash in the middle of an upload', () => {
  it('leaves no artifact, no row and no blob; the temp file is swept at restart', async () => {
    const port = await freePort();
    server = await startServer(port);
    const created = await fetch(
      `http://127.0.0.1:${port}/artifactory/api/repositories/crash-local`,
      {
        method: 'PUT',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
      },
    );
    expect(created.status).toBe(200);

    const MiB = 1024 * 1024;
    await startSlowUpload(port, '/artifactory/crash-local/big/200mib.bin', 200 * MiB, 100 * MiB);
    // Let the server write what it received, so a temp file really exists when it dies: on a
    // loaded machine its first write can take longer than any fixed pause.
    await vi.waitFor(() => expect(filestoreEntries().temp.length).toBe(1), {
      timeout: 30_000,
      interval: 50,
    });
    server.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));

    server = await startServer(port);
    const base = `http://127.0.0.1:${port}`;
    expect(
      (
        await fetch(`${base}/artifactory/crash-local/big/200mib.bin`, {
          headers: { authorization: auth },
        })
      ).status,
    ).toBe(404);
    const listing = await fetch(
      `${base}/artifactory/api/storage/crash-local?list&deep=1&listFolders=1`,
      { headers: { authorization: auth } },
    );
    expect((await listing.json()).files).toEqual([]);
    expect(filestoreEntries()).toEqual({ blobs: [], temp: [] });
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;
  }, 120000);
});
