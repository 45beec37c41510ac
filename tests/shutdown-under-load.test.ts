import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';

const home = mkdtempSync(join(tmpdir(), 'depot-shutdown-'));
const auth = `Basic ${Buffer.from('admin:shutdown-admin-1').toString('base64')}`;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let server: ChildProcess | undefined;
let stopLoad = false;

afterAll(() => {
  stopLoad = true;
  server?.kill('SIGKILL');
  agent.destroy();
  rmSync(home, { recursive: true, force: true });
});

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

async function start(port: number) {
  const child = spawnDepot(home, port, {
    DEPOT_ADMIN_PASSWORD: 'shutdown-admin-1',
    DEPOT_SHUTDOWN_GRACE_SECONDS: '2',
    DEPOT_GC_GRACE_SECONDS: '0',
  });
  await waitForPing(`http://127.0.0.1:${port}`, child);
  return child;
}

/** One request over the keep-alive agent; its status, or 0 when the connection broke. */
function send(port: number, method: string, path: string, body?: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: auth };
    if (body) headers['content-length'] = body.length;
    if (body && !path.startsWith('/artifactory/gen/')) headers['content-type'] = 'application/json';
    const sent = request({ agent, host: '127.0.0.1', port, method, path, headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
      answer.on('error', () => resolve(0));
    });
    sent.on('error', () => resolve(0));
    sent.end(body);
  });
}

/** An upload that sends slowly, far longer than the grace period; resolves when it ends. */
function slowUpload(port: number): Promise<string> {
  return new Promise((resolve) => {
    const total = 64 * 1024 * 1024;
    const upload = request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/artifactory/gen/slow/never-finished.bin',
      headers: { authorization: auth, 'content-length': total },
    });
    upload.on('response', (answer) => resolve(`answered ${answer.statusCode}`));
    upload.on('error', (error) => resolve(`broken: ${(error as NodeJS.ErrnoException).code}`));
    const chunk = Buffer.alloc(256 * 1024, 3);
    let sent = 0;
    const timer = setInterval(() => {
      if (stopLoad || sent >= total) return clearInterval(timer);
      upload.write(chunk);
      sent += chunk.length;
    }, 100);
    upload.on('close', () => clearInterval(timer));
  });
}

describe('SIGTERM under uploads and garbage collection', () => {
  it('exits 0 after the grace period, aborting what is unfinished, and keeps every acknowledged upload', async () => {
    const port = await freePort();
    server = await start(port);
    expect(
      await send(
        port,
        'PUT',
        '/artifactory/api/repositories/gen',
        Buffer.from(JSON.stringify({ rclass: 'local', packageType: 'generic' })),
      ),
    ).toBe(200);
    // Deleted for good, so garbage collection has blobs to collect while it loops.
    expect(
      await send(port, 'PUT', '/ui/api/v1/ui/trashcan', Buffer.from('{"enabled":false}')),
    ).toBe(200);

    const acknowledged = new Map<string, string>();
    let next = 0;
    const uploader = async (worker: number) => {
      while (!stopLoad) {
        const n = next++;
        const body = Buffer.alloc(64 * 1024 + n, n % 251);
        const path = `up/w${worker}/f${n}.bin`;
        if ((await send(port, 'PUT', `/artifactory/gen/${path}`, body)) !== 201) continue;
        // Every other one is deleted again (garbage for the collector), so it is not expected
        // back: the delete may land whether or not its answer does.
        if (n % 2 === 0) await send(port, 'DELETE', `/artifactory/gen/${path}`);
        else acknowledged.set(path, sha256(body));
      }
    };
    const collector = async () => {
      while (!stopLoad) await send(port, 'POST', '/ui/api/v1/ui/maintenance/garbageCollection');
    };
    const slow = slowUpload(port);
    const load = [0, 1, 2, 3].map(uploader).concat([collector()]);
    while (acknowledged.size < 10) await new Promise((resolve) => setTimeout(resolve, 100));

    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    stopLoad = true;
    await Promise.all(load);
    expect(await slow).toMatch(/^broken/);

    server = await start(port);
    const base = `http://127.0.0.1:${port}/artifactory/gen`;
    for (const [path, checksum] of acknowledged) {
      const stored = await fetch(`${base}/${path}`, { headers: { authorization: auth } });
      expect(stored.status, path).toBe(200);
      expect(sha256(Buffer.from(await stored.arrayBuffer())), path).toBe(checksum);
    }
    const unfinished = await fetch(`${base}/slow/never-finished.bin`, {
      headers: { authorization: auth },
    });
    expect(unfinished.status).toBe(404);
    const stopped = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await stopped).toBe(0);
    server = undefined;
  }, 240_000);
});
