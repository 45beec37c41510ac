import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { craftZip } from './helpers/archives.ts';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';

/**
 * A retention run killed with SIGKILL half-way (docs/retention.md, "A run"): after a restart
 * every file the policy chose is either still in its repository or archived with its bytes
 * intact in the cold store, never both and never half-written, and the run is marked FAILED.
 * The cold store is slowed (DEPOT_COLD_STORE_KB_PER_SECOND) so that the kill lands mid-run.
 */
const home = mkdtempSync(join(tmpdir(), 'depot-crash-retention-'));
const coldStore = join(home, 'coldstore');
const auth = `Basic ${Buffer.from('admin:crash-admin-1').toString('base64')}`;
const FILES = 12;
// 16 KiB at 64 KiB/s: a quarter of a second per file, three seconds for the run.
const contents = Array.from({ length: FILES }, () => randomBytes(16 * 1024));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
let server: ChildProcess | undefined;
let base = '';

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }
  rmSync(home, { recursive: true, force: true });
});

async function startServer(port: number) {
  const child = spawnDepot(home, port, {
    DEPOT_ADMIN_PASSWORD: 'crash-admin-1',
    DEPOT_COLD_STORE_KB_PER_SECOND: '64',
  });
  await waitForPing(`http://127.0.0.1:${port}`, child);
  return child;
}

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { authorization: auth, ...init.headers } });
const json = (method: string, path: string, body: unknown) =>
  call(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const coldPath = (sha: string) => join(coldStore, sha.slice(0, 2), sha.slice(2, 4), sha);
/** Contents the cold store holds in full (its shard folders; `_tmp` holds copies in flight). */
const coldBlobs = () => contents.filter((content) => existsSync(coldPath(sha256(content))));

/** Kills the server once the run has copied some files to the cold store but not all. */
async function killMidway() {
  const deadline = Date.now() + 30_000;
  while (coldBlobs().length < 3) {
    if (Date.now() > deadline)
      throw new Error(`the run never got going: ${coldBlobs().length} file(s) in the cold store`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  server!.kill('SIGKILL');
  await new Promise((resolve) => server!.once('exit', resolve));
}

describe('a crash in the middle of a retention run', () => {
  it('loses nothing: each file stays, or is archived whole; the run is FAILED', async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServer(port);
    const created = await json('PUT', '/artifactory/api/repositories/old-local', {
      rclass: 'local',
      packageType: 'generic',
    });
    expect(created.status).toBe(200);
    const zip = craftZip(contents.map((data, i) => ({ name: `file-${i}.bin`, data })));
    const deployed = await call('/artifactory/old-local/old/files.zip', {
      method: 'PUT',
      headers: { 'x-explode-archive': 'true' },
      body: new Uint8Array(zip),
    });
    expect(deployed.status).toBe(201);
    const policies = '/ui/api/v1/ui/retention/archive/policies';
    const saved = await json('POST', policies, {
      key: 'old',
      cronExp: '0 0 3 ? * SUN',
      enabled: false,
      action: 'archive',
      policyBase: 'FORM',
      paths: ['old'],
    });
    expect(saved.status).toBe(201);
    expect((await call(`${policies}/old/trigger`, { method: 'POST' })).status).toBe(200);
    await killMidway();

    server = await startServer(port);
    const executions = await (await call('/ui/api/v1/ui/retention/archive/executions')).json();
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({ policyName: 'old', state: 'FAILED' });
    expect(executions[0].endTime).not.toBeNull();
    expect(readdirSync(join(coldStore, '_tmp'))).toEqual([]);

    const search = await call('/ui/api/v1/ui/retention/search', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'items.find({"repo":"old-local"})',
    });
    const archived = new Set<string>(
      (await search.json()).data.results.map((item: { name: string }) => item.name),
    );
    let stayed = 0;
    for (const [i, content] of contents.entries()) {
      const name = `file-${i}.bin`;
      const response = await call(`/artifactory/old-local/old/${name}`);
      if (response.status === 200) {
        expect(Buffer.from(await response.arrayBuffer()).equals(content), name).toBe(true);
        expect(archived.has(name), `${name} is both in place and archived`).toBe(false);
        stayed += 1;
      } else {
        expect(response.status).toBe(404);
        expect(archived.has(name), `${name} is neither in place nor archived`).toBe(true);
        expect(sha256(readFileSync(coldPath(sha256(content)))), name).toBe(sha256(content));
      }
    }
    // Killed half-way: some files went, some stayed.
    expect(archived.size).toBeGreaterThan(0);
    expect(stayed).toBeGreaterThan(0);
    expect(archived.size + stayed).toBe(FILES);

    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;
  }, 120_000);
});
