import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { releaseUnreferencedBlob } from '../server/modules/maintenance/blob-release.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
  await depot.services.trash.updateConfig({ enabled: false });
});
afterAll(() => depot?.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const put = (path: string, body: string) =>
  depot.request(`/artifactory/libs/${path}`, { method: 'PUT', body });
const del = (path: string) => depot.request(`/artifactory/libs/${path}`, { method: 'DELETE' });
const onDisk = (text: string) => existsSync(depot.services.filestore.pathOf(sha256(text)));
const onPostgres = Boolean(process.env.DEPOT_TEST_DATABASE_URL);

const advisoryWaiters = async () => {
  const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_locks
    where locktype = 'advisory' and not granted`.execute(depot.db);
  return rows[0].waiting;
};

/** Takes a session's advisory lock on a connection of its own; answers what lets it go. */
async function holdAdvisoryLock(key: number) {
  let taken = () => {};
  let letGo = () => {};
  const lockTaken = new Promise<void>((resolve) => (taken = resolve));
  const released = new Promise<void>((resolve) => (letGo = resolve));
  const holding = depot.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    taken();
    await released;
    await sql`select pg_advisory_unlock(${key})`.execute(connection);
  });
  await Promise.race([lockTaken, holding]);
  return async () => {
    letGo();
    await holding;
  };
}

async function until(condition: () => Promise<boolean>) {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 200) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('garbage collection', () => {
  it('frees binaries nothing refers to, and keeps shared ones', async () => {
    await put('a/orphan.bin', 'orphan content');
    await put('a/shared-1.bin', 'shared content');
    await put('b/shared-2.bin', 'shared content');
    await del('a');
    const report = await depot.services.garbageCollector.collect(0);
    expect(report).toEqual({ binaries: 1, bytes: 'orphan content'.length });
    expect(onDisk('orphan content')).toBe(false);
    expect(onDisk('shared content')).toBe(true);
    expect(await (await depot.request('/artifactory/libs/b/shared-2.bin')).text()).toBe(
      'shared content',
    );
  });

  it('leaves blobs touched within the grace period (Run Now uses one hour)', async () => {
    await put('c/recent.bin', 'recent content');
    await del('c/recent.bin');
    const response = await depot.request('/ui/api/v1/ui/maintenance/garbageCollection', {
      method: 'POST',
    });
    expect(await response.json()).toEqual({
      info: 'Garbage collection freed 0 binaries (0 bytes)',
      binaries: 0,
      bytes: 0,
    });
    expect(onDisk('recent content')).toBe(true);
  });

  it('never loses content re-uploaded while it runs', async () => {
    for (let round = 0; round < 10; round++) {
      const content = `raced content ${round}`;
      await put(`race/${round}.bin`, content);
      await del(`race/${round}.bin`);
      const [, upload] = await Promise.all([
        depot.services.garbageCollector.collect(0),
        put(`race/${round}.bin`, content),
      ]);
      expect(upload.status).toBe(201);
      const download = await depot.request(`/artifactory/libs/race/${round}.bin`);
      expect(await download.text()).toBe(content);
      expect(onDisk(content)).toBe(true);
    }
  });

  // The race above made certain, on PostgreSQL (the embedded database runs one transaction at
  // a time): the collector's statement takes its snapshot, a deploy of the same content
  // commits, then the collector locks the row. An advisory lock the test holds keeps the
  // collector between its snapshot and its lock.
  it.runIf(onPostgres)(
    'keeps content whose deploy commits between its test of references and its lock',
    async () => {
      const content = 'content deployed while the collector waits';
      await put('held/again.bin', content);
      await del('held/again.bin');
      const waitOnTest = sql<boolean>`(select true from pg_advisory_xact_lock_shared(4242))`;
      const letGo = await holdAdvisoryLock(4242);
      try {
        const collecting = depot.db
          .transaction()
          .execute((tx) =>
            releaseUnreferencedBlob(tx, depot.services.filestore, sha256(content), waitOnTest),
          );
        await until(async () => (await advisoryWaiters()) === 1);
        expect((await put('held/again.bin', content)).status).toBe(201);
        await letGo();
        expect(await collecting).toBeUndefined();
      } finally {
        await letGo();
      }
      expect(onDisk(content)).toBe(true);
      expect(await (await depot.request('/artifactory/libs/held/again.bin')).text()).toBe(content);
    },
  );

  it("measures the grace period by the database's clock, whatever this node's clock says", async () => {
    await put('skew/aged.bin', 'aged content');
    await del('skew/aged.bin');
    // Last touched two minutes ago, by the clock of the database that stamps `touched_at`.
    await sql`update blobs set touched_at = now() - interval '2 minutes'
      where sha256 = ${sha256('aged content')}`.execute(depot.db);
    // This node's clock runs ten minutes behind the database's (the Depot runs in this
    // process): a cutoff taken from it would keep the blob from a one-minute grace period.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 10 * 60 * 1000);
    try {
      await depot.services.garbageCollector.collect(5 * 60 * 1000);
      expect(onDisk('aged content')).toBe(true);
      await depot.services.garbageCollector.collect(60 * 1000);
      expect(onDisk('aged content')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps what is in the trash can', async () => {
    await depot.services.trash.updateConfig({ enabled: true });
    await put('d/trashed.bin', 'trashed content');
    await del('d/trashed.bin');
    await depot.services.garbageCollector.collect(0);
    expect(onDisk('trashed content')).toBe(true);
  });
});
