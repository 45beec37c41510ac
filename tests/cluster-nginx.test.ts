import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobLockKey, LOCK_NAMESPACE } from '../server/jobs/job-lock.ts';
import { INTERRUPTED } from '../server/jobs/scheduler.ts';
import { startNginx, type NginxBalancer } from './helpers/nginx.ts';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';
import { basic, createScratchDatabase } from './helpers/test-app.ts';

/**
 * Two Depot processes on one PostgreSQL database and one filestore, behind Debian's nginx
 * with the configuration docs/cluster.md gives (tests/helpers/nginx.ts): they serve as one.
 */
const serverUrl = process.env.DEPOT_TEST_DATABASE_URL;
const PASSWORD = 'cluster-admin-1';
const admin = { authorization: basic('admin', PASSWORD) };
/** Unreferenced blobs for the job a node is killed in: enough for a run to take a while. */
const ORPHANS = 600;
const ORPHAN_SIZE = 4242;

interface Node {
  id: string;
  base: string;
  process: ChildProcess;
  home: string;
  env: Record<string, string>;
}

/** Stops a child with `signal` and waits for its end (at once when it has ended). */
async function stop(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Whether the process has a temp file of the filestore open: an upload it is receiving. */
function holdsUploadTemp(pid: number, tmpDir: string): boolean {
  const fds = join('/proc', String(pid), 'fd');
  try {
    return readdirSync(fds).some((fd) => {
      try {
        return readlinkSync(join(fds, fd)).startsWith(tmpDir);
      } catch {
        return false; // closed since the listing
      }
    });
  } catch {
    return false; // the process has ended
  }
}

/** Polls until `check` holds, failing after `ms`; answers how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe.runIf(serverUrl)('two nodes behind nginx', () => {
  const nodes: Node[] = [];
  let balancer: NginxBalancer | undefined;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  // Made in beforeAll: a skipped describe's body still runs, and its afterAll does not.
  let filestore = '';
  const [first, second] = [() => nodes[0]!, () => nodes[1]!];
  const via = (base: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...admin, ...init.headers } });

  beforeAll(async () => {
    filestore = mkdtempSync(join(tmpdir(), 'depot-cluster-filestore-'));
    scratch = await createScratchDatabase(serverUrl!);
    // One master key for the cluster: what one node seals, signs or encrypts, all can read.
    const masterKey = randomBytes(32).toString('hex');
    for (const id of ['node-a', 'node-b']) {
      const home = mkdtempSync(join(tmpdir(), `depot-cluster-${id}-`));
      const port = await freePort();
      const env = {
        DEPOT_DATABASE_URL: scratch.url,
        DEPOT_FILESTORE_DIR: filestore,
        DEPOT_MASTER_KEY: masterKey,
        DEPOT_NODE_ID: id,
        DEPOT_ADMIN_PASSWORD: PASSWORD,
      };
      const child = spawnDepot(home, port, env);
      const node = { id, base: `http://127.0.0.1:${port}`, process: child, home, env };
      nodes.push(node);
      // One after the other: the first applies the migrations.
      await waitForPing(node.base, child, 120000);
    }
    balancer = await startNginx(nodes.map((node) => Number(new URL(node.base).port)));
    const created = await via(balancer.baseUrl, '/artifactory/api/repositories/shared', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(created.status).toBe(200);
  }, 300000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(
      nodes.map(async (node) => {
        await stop(node.process, 'SIGTERM');
        rmSync(node.home, { recursive: true, force: true });
      }),
    );
    await scratch?.drop();
    if (filestore) rmSync(filestore, { recursive: true, force: true });
  }, 60000);

  it('serves what was deployed through either node from both, at once', async () => {
    // nginx takes turns: of four deploys, each node receives some.
    for (let i = 0; i < 4; i++) {
      const put = await via(balancer!.baseUrl, `/artifactory/shared/file-${i}.txt`, {
        method: 'PUT',
        body: `content ${i}`,
      });
      expect(put.status).toBe(201);
    }
    for (const node of nodes)
      for (let i = 0; i < 4; i++) {
        const got = await via(node.base, `/artifactory/shared/file-${i}.txt`);
        expect([node.id, got.status, await got.text()]).toEqual([node.id, 200, `content ${i}`]);
      }
  });

  it('applies a permission given on one node on the other without waiting out its caches', async () => {
    const user = await via(first().base, '/artifactory/api/security/users/dev', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dev@example.com', password: 'dev-pass-12' }),
    });
    expect(user.status).toBe(201);
    // Every user may read (the default permission); deploying needs a grant.
    let attempt = 0;
    const deployOnSecond = () =>
      fetch(`${second().base}/artifactory/shared/by-dev-${attempt++}.txt`, {
        method: 'PUT',
        headers: { authorization: basic('dev', 'dev-pass-12') },
        body: 'from dev',
      }).then((response) => response.status);
    expect(await deployOnSecond()).toBe(403);
    const target = await via(first().base, '/artifactory/api/v2/security/permissions/dev-deploys', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        repo: {
          repositories: ['shared'],
          actions: { users: { dev: ['read', 'write'] }, groups: {} },
        },
      }),
    });
    expect(target.status).toBe(201);
    // The read caches keep rows up to 5 s: half of that shows the database's notification
    // did the work, not the caches' lifetime.
    await within(2500, async () => (await deployOnSecond()) === 201);
  });

  it('keeps a session signed in through nginx, and a token made on one node, good on both', async () => {
    const login = await fetch(`${balancer!.baseUrl}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    for (const node of nodes) {
      const current = await fetch(`${node.base}/ui/api/v1/ui/auth/current`, {
        headers: { cookie },
      });
      expect([node.id, ((await current.json()) as { name: string }).name]).toEqual([
        node.id,
        'admin',
      ]);
    }
    const made = await via(second().base, '/access/api/v1/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(made.status).toBe(200);
    const { access_token: token } = (await made.json()) as { access_token: string };
    const used = await fetch(`${first().base}/artifactory/api/repositories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(used.status).toBe(200);
  });

  it('runs a job on one node at a time, and on another once the holder is gone', async () => {
    // A third holder of garbage collection's lock: what a node running it holds. Its
    // connection then drops as a killed node's does, and PostgreSQL lets the lock go.
    const holder = new pg.Client({ connectionString: scratch!.url });
    await holder.connect();
    holder.on('error', () => undefined);
    await holder.query('select pg_advisory_lock($1::int, $2::int)', [
      LOCK_NAMESPACE,
      jobLockKey('garbageCollection'),
    ]);
    const runOn = (node: Node) =>
      via(node.base, '/ui/api/v1/ui/maintenance/garbageCollection', { method: 'POST' }).then(
        (response) => response.status,
      );
    try {
      expect(await runOn(first())).toBe(409);
      expect(await runOn(second())).toBe(409);
    } finally {
      (
        holder as unknown as { connection: { stream: { destroy(): void } } }
      ).connection.stream.destroy();
    }
    await within(10000, async () => (await runOn(second())) === 200);
  });
  it('hands a job over when the node running it is killed with kill -9: the other completes it', async () => {
    const sql = new pg.Client({ connectionString: scratch!.url });
    await sql.connect();
    try {
      // Blobs no file refers to, older than the grace period: enough for a run to take a while.
      await sql.query(
        `insert into blobs (sha256, sha1, size, touched_at, created_at)
         select h, left(h, 40), $2, now() - interval '2 days', now() - interval '2 days'
         from (select encode(sha256(('orphan-' || g)::bytea), 'hex') as h
               from generate_series(1, $1::int) g) orphans`,
        [ORPHANS, ORPHAN_SIZE],
      );
      const orphansLeft = async () =>
        Number(
          (await sql.query('select count(*) from blobs where size = $1', [ORPHAN_SIZE])).rows[0]
            .count,
        );
      const lockHolders = async () =>
        Number(
          (
            await sql.query(
              `select count(*) from pg_locks where locktype = 'advisory' and granted
               and classid = $1::int::oid and objid = $2::int::oid and objsubid = 2`,
              [LOCK_NAMESPACE, jobLockKey('garbageCollection')],
            )
          ).rows[0].count,
        );
      const gcOn = (node: Node) =>
        via(node.base, '/ui/api/v1/ui/maintenance/garbageCollection', { method: 'POST' });
      const cut = gcOn(first()).then(
        (response) => response.status,
        () => 'connection cut',
      );
      // Mid-run: the first node holds the job's lock and has collected some, not all.
      await within(60000, async () => {
        const left = await orphansLeft();
        return left > 0 && left < ORPHANS;
      });
      expect(await lockHolders()).toBe(1);
      await stop(first().process, 'SIGKILL');
      expect(await cut).toBe('connection cut');
      const leftAtKill = await orphansLeft();
      // The dead node's connection took its lock along: the second node runs the job now.
      let finished: { binaries: number } | undefined;
      await within(10000, async () => {
        const response = await gcOn(second());
        if (response.status === 200) finished = (await response.json()) as { binaries: number };
        return finished !== undefined;
      });
      expect(finished!.binaries).toBe(leftAtKill);
      expect(await orphansLeft()).toBe(0);
      const runs = await sql.query(
        `select outcome, info from job_runs where job = 'garbageCollection' order by id desc limit 2`,
      );
      expect(runs.rows.reverse()).toEqual([
        { outcome: 'failure', info: INTERRUPTED },
        { outcome: 'success', info: expect.stringContaining(`freed ${leftAtKill} binaries`) },
      ]);
    } finally {
      await sql.end();
    }
    // Back for the next case: the one extra start this file pays for.
    const node = first();
    node.process = spawnDepot(node.home, Number(new URL(node.base).port), node.env);
    await waitForPing(node.base, node.process, 120000);
  }, 180000);

  it('keeps everything committed, and nothing of the upload, when a node is killed mid-upload', async () => {
    const sql = new pg.Client({ connectionString: scratch!.url });
    await sql.connect();
    const count = async (query: string) => Number((await sql.query(query)).rows[0].count);
    try {
      const blobsBefore = await count('select count(*) from blobs');
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      const upload = fetch(`${balancer!.baseUrl}/artifactory/shared/cut-short.bin`, {
        method: 'PUT',
        headers: admin,
        body,
        duplex: 'half',
      } as RequestInit).then(
        (response) => response.status,
        () => 'connection cut',
      );
      controller.enqueue(randomBytes(256 * 1024));
      // The node nginx chose: the one with a temp file of the filestore open.
      let receiver: Node | undefined;
      await within(30000, async () => {
        receiver = nodes.find((node) =>
          holdsUploadTemp(node.process.pid!, join(filestore, '_tmp')),
        );
        return receiver !== undefined;
      });
      await stop(receiver!.process, 'SIGKILL');
      controller.enqueue(randomBytes(1024));
      controller.close();
      expect(await upload).not.toBe(201);
      const survivor = nodes.find((node) => node !== receiver)!;
      for (const base of [survivor.base, balancer!.baseUrl])
        for (let i = 0; i < 4; i++) {
          const got = await via(base, `/artifactory/shared/file-${i}.txt`);
          expect([got.status, await got.text()]).toEqual([200, `content ${i}`]);
        }
      expect((await via(survivor.base, '/artifactory/shared/cut-short.bin')).status).toBe(404);
      expect(await count(`select count(*) from nodes where name = 'cut-short.bin'`)).toBe(0);
      expect(await count('select count(*) from blobs')).toBe(blobsBefore);
    } finally {
      await sql.end();
    }
  });
});
