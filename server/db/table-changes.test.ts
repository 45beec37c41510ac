import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestDepot, type TestDepot } from '../../tests/helpers/test-app.ts';
import { createReadCache } from '../cache/read-cache.ts';
import { TableChanges } from './table-changes.ts';

describe('createReadCache', () => {
  it('loads once within its lifetime and again after clear', async () => {
    const cache = createReadCache<string, number>({ ttlMs: 60000, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    cache.clear();
    expect(await cache.get('a', load)).toBe(2);
  });

  it('forgets a failed load and an expired entry', async () => {
    const cache = createReadCache<string, number>({ ttlMs: 0, maxEntries: 10 });
    await expect(cache.get('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('a', async () => 7)).toBe(7);
    expect(await cache.get('a', async () => 8)).toBe(8);
  });
});

describe('TableChanges', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot();
  });
  afterAll(() => depot.close());

  it('reports builder and raw writes to the tables they touch, not reads', async () => {
    const changes = new TableChanges();
    const seen: string[] = [];
    changes.onChange(['settings'], () => seen.push('settings'));
    changes.onChange(['users'], () => seen.push('users'));
    const db = depot.db.withPlugin(changes);
    await db.selectFrom('settings').selectAll().execute();
    expect(seen).toEqual([]);
    await db
      .insertInto('settings')
      .values({ key: 'probe', value: JSON.stringify({}) })
      .execute();
    // Once when sent and once when done.
    expect(seen).toEqual(['settings', 'settings']);
    seen.length = 0;
    await sql`delete from settings where key = 'probe'`.execute(db);
    expect(seen).toEqual(['settings', 'settings']);
  });
});
