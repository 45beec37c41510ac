import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
