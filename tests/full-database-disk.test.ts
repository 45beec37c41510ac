import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPGlite } from '../server/db/pglite-open.ts';
import { clusterTemplates } from '../server/db/pglite-templates.ts';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';
import { mountSmallDisk, type SmallDisk } from './helpers/small-disk.ts';
import { basic } from './helpers/test-app.ts';
import {
  giveToPostgres,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './helpers/throwaway-postgres.ts';

/**
 * The real server process (server/main.ts) on a database disk that fills up: a write that
 * finds no room answers 507 with a plain message, the server goes on answering, writes work
 * again as soon as there is room, and SIGTERM ends it with exit code 0. Mounting the small
 * disks needs root, which CI has.
 */
const MiB = 1024 * 1024;
const PASSWORD = 'disk-admin-1';
const DISK_FULL = {
  errors: [{ status: 507, message: 'Not enough disk space for the database' }],
};
const onPostgres = Boolean(process.env.DEPOT_TEST_DATABASE_URL);

/** A started server: its base URL, and `stop` (SIGTERM) resolving to its exit code. */
interface Running {
  base: string;
  process: ChildProcess;
  stop(): Promise<number | null>;
}

async function startDepot(home: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const child = spawnDepot(home, port, { DEPOT_ADMIN_PASSWORD: PASSWORD, ...env });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  await waitForPing(base, child);
  return {
    base,
    process: child,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A call as admin; one that hangs fails the test here rather than wedging it. */
const call = (running: Running, path: string, init: RequestInit = {}) =>
  fetch(`${running.base}${path}`, {
    ...init,
    headers: { authorization: basic('admin', PASSWORD), ...(init.headers as object) },
    signal: AbortSignal.timeout(60000),
  });

/** A write to the database only; a long description makes it take more room. */
const createRepository = (running: Running, key: string, description = '') =>
  call(running, `/artifactory/api/repositories/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'generic', description }),
  });

const repositoryKeys = async (running: Running) =>
  ((await (await call(running, '/artifactory/api/repositories')).json()) as { key: string }[]).map(
    (repository) => repository.key,
  );

/** Creates repositories until one is refused; answers the keys created and the refusal. */
async function createUntilRefused(running: Running, description = () => '') {
  const created: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const response = await createRepository(running, `r${i}`, description());
    if (response.status !== 200) return { created, refusedKey: `r${i}`, refusal: response };
    created.push(`r${i}`);
  }
  throw new Error('The disk never filled: 1000 repositories were created');
}

/** Deploys a file to keep, and says how to check that it was kept. */
async function deployKeptFile(running: Running) {
  expect((await createRepository(running, 'libs')).status).toBe(200);
  const deployed = await call(running, '/artifactory/libs/kept.txt', {
    method: 'PUT',
    body: 'deployed before the disk filled',
  });
  expect(deployed.status).toBe(201);
}

async function expectKeptFile(running: Running) {
  const download = await call(running, '/artifactory/libs/kept.txt');
  expect(await download.text()).toBe('deployed before the disk filled');
}

/**
 * Writes WAL into the stopped embedded database (logical messages, which touch no table)
 * until its end lies `margin` bytes before the end of a WAL segment; answers that segment's
 * file name.
 */
async function bringWalNearSegmentEnd(home: string, margin: number): Promise<string> {
  const pglite = await openPGlite(home, { templates: clusterTemplates() });
  try {
    const bytesLeft = async () => {
      const { rows } = await pglite.query<{ left: string }>(
        `select setting::numeric - (pg_current_wal_insert_lsn() - '0/0') % setting::numeric as left
           from pg_settings where name = 'wal_segment_size'`,
      );
      return Number(rows[0].left);
    };
    for (let left = await bytesLeft(); left > margin; left = await bytesLeft()) {
      await pglite.query(`select pg_logical_emit_message(false, 'depot-test', repeat('x', $1))`, [
        Math.min(MiB, left - margin),
      ]);
    }
    const { rows } = await pglite.query<{ name: string }>(
      'select pg_walfile_name(pg_current_wal_insert_lsn()) as name',
    );
    return rows[0].name;
  } finally {
    await pglite.close();
  }
}

/**
 * Removes the WAL segments PostgreSQL made ready ahead of `current` (it does so at start-up
 * and at checkpoints once a segment is three quarters full). A server that started earlier
 * in a segment has none, and one that runs on meets the end of its segment with nothing
 * made ready: the state this test needs, reached here without writing 16 MiB of WAL.
 */
function removeWalSegmentsAhead(home: string, current: string) {
  const walDir = join(home, 'db', 'pg_wal');
  for (const name of readdirSync(walDir))
    if (/^[0-9A-F]{24}$/.test(name) && name > current) rmSync(join(walDir, name));
}

describe.runIf(!onPostgres)('a full disk under the embedded database', () => {
  // The whole of DEPOT_HOME, as a default install has it: database, logs and filestore.
  let disk: SmallDisk;
  let running: Running | undefined;
  beforeAll(() => {
    disk = mountSmallDisk('depot-database-disk-', 128 * MiB);
  });
  afterAll(() => {
    running?.process.kill('SIGKILL');
    disk?.release();
  });

  it('answers a write whose WAL finds no room with 507, serves again once there is room, and exits 0 on SIGTERM', async () => {
    running = await startDepot(disk.path);
    await deployKeptFile(running);
    expect(await running.stop()).toBe(0);

    // The WAL's end 32 KiB before a segment's end: some fifty repositories later, the next
    // write needs a new 16 MiB segment, and the disk is left 4 MiB.
    const segment = await bringWalNearSegmentEnd(disk.path, 32 * 1024);
    running = await startDepot(disk.path);
    removeWalSegmentsAhead(disk.path, segment);
    disk.fill(4 * MiB);

    const { created, refusedKey, refusal } = await createUntilRefused(running);
    expect(refusal.status).toBe(507);
    expect(await refusal.json()).toEqual(DISK_FULL);
    // The database stopped there (PostgreSQL's PANIC) and cannot start while the disk is
    // full: every call says so at once, also with the log's disk full.
    expect((await createRepository(running, 'while-full')).status).toBe(507);
    disk.fill();
    expect((await createRepository(running, 'log-full')).status).toBe(507);

    disk.empty();
    expect((await createRepository(running, 'after')).status).toBe(200);
    const keys = await repositoryKeys(running);
    expect(keys).toEqual(expect.arrayContaining(['libs', ...created, 'after']));
    for (const refused of [refusedKey, 'while-full', 'log-full'])
      expect(keys).not.toContain(refused);
    await expectKeptFile(running);

    expect(await running.stop()).toBe(0);
    const log = readFileSync(join(disk.path, 'logs', 'depot-service.log'), 'utf8');
    expect(log).toContain('the embedded database stopped; the next query starts it again');
    expect(log).toContain('"msg":"shutting down"');
  }, 600000);
});

/** 4,000 characters that do not compress: each repository takes room of its own. */
const randomText = () => randomBytes(3000).toString('base64');

describe.runIf(onPostgres)('a full disk under PostgreSQL', () => {
  // A cluster of this test's own, its data directory on the ordinary disk and Depot's
  // database in a tablespace on a 16 MiB tmpfs.
  let disk: SmallDisk;
  let postgres: ThrowawayPostgres;
  let databaseUrl: string;
  let home: string | undefined;
  let running: Running | undefined;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'depot-database-disk-'));
    disk = mountSmallDisk('depot-tablespace-disk-', 16 * MiB);
    giveToPostgres(disk.path);
    postgres = await startThrowawayPostgres();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      await admin.query(`create tablespace depot_small location '${disk.path}'`);
      await admin.query('create database depot_small tablespace depot_small');
    } finally {
      await admin.end();
    }
    const url = new URL(postgres.url);
    url.pathname = '/depot_small';
    databaseUrl = url.toString();
  }, 120000);

  afterAll(() => {
    running?.process.kill('SIGKILL');
    try {
      postgres?.stop();
    } finally {
      disk?.release();
      if (home) rmSync(home, { recursive: true, force: true });
    }
  });

  it('answers a write that finds no room with 507, serves again once there is room, and exits 0 on SIGTERM', async () => {
    running = await startDepot(home!, { DEPOT_DATABASE_URL: databaseUrl });
    await deployKeptFile(running);
    disk.fill();

    const { created, refusedKey, refusal } = await createUntilRefused(running, randomText);
    expect(refusal.status).toBe(507);
    expect(await refusal.json()).toEqual(DISK_FULL);
    expect((await createRepository(running, 'while-full', randomText())).status).toBe(507);

    disk.empty();
    expect((await createRepository(running, 'after')).status).toBe(200);
    const keys = await repositoryKeys(running);
    expect(keys).toEqual(expect.arrayContaining(['libs', ...created, 'after']));
    for (const refused of [refusedKey, 'while-full']) expect(keys).not.toContain(refused);
    await expectKeptFile(running);

    expect(await running.stop()).toBe(0);
  }, 300000);
});
