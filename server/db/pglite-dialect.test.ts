import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBulkWork } from './bulk-work.ts';
import { EmbeddedDatabase } from './embedded-database.ts';
import { PGliteDialect, PRIORITY_TURNS_IN_A_ROW } from './pglite-dialect.ts';
import { priorityTransaction } from './priority-work.ts';

/**
 * The embedded database's one session, shared fairly (issue 22, item 9): a query that waited
 * for a transaction is sent before the next waiting transaction begins, so it waits for one
 * transaction, not for every one queued; bulk work's statements are sent one at a time, so a
 * query waits for one of them, not for every one queued; and no query ever runs inside
 * another's transaction.
 */
let home: string;
let db: Kysely<Record<string, never>>;
let dialect: PGliteDialect;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'depot-dialect-'));
  const embedded = new EmbeddedDatabase(home);
  await embedded.waitReady;
  dialect = new PGliteDialect(embedded);
  db = new Kysely({ dialect });
  await sql`create table marks (label text not null)`.execute(db);
});
afterAll(async () => {
  await db?.destroy();
  rmSync(home, { recursive: true, force: true });
});

/**
 * A transaction that has begun and holds the session until `release` is called; with
 * `rollBack` it then fails, and is rolled back.
 */
async function heldTransaction(order: string[], name: string, rollBack = false) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const done = db.transaction().execute(async (tx) => {
    await sql`insert into marks values (${name})`.execute(tx);
    order.push(`${name} began`);
    begun();
    await held;
    order.push(`${name} ends`);
    if (rollBack) throw new Error(`${name} is rolled back`);
  });
  await started;
  return { release, done };
}

describe('the embedded database session', () => {
  it('sends a waiting query before the next waiting transaction begins', async () => {
    const order: string[] = [];
    const first = await heldTransaction(order, 'first');
    const second = db.transaction().execute(async (tx) => {
      order.push('second began');
      await sql`select 1`.execute(tx);
      order.push('second ends');
    });
    const third = db.transaction().execute(async (tx) => {
      order.push('third began');
      await sql`select 1`.execute(tx);
    });
    // Queued behind both transactions.
    const ping = sql`select 1`.execute(db).then(() => order.push('ping answered'));
    first.release();
    await Promise.all([first.done, second, third, ping]);
    expect(order).toEqual([
      'first began',
      'first ends',
      'ping answered',
      'second began',
      'second ends',
      'third began',
    ]);
  });

  it('begins priority transactions ahead of waiting ones, a bounded number in a row', async () => {
    const order: string[] = [];
    const first = await heldTransaction(order, 'first');
    const body = (name: string) => async (tx: Kysely<Record<string, never>>) => {
      order.push(name);
      await sql`select 1`.execute(tx);
    };
    const plain = ['plain 1', 'plain 2'].map((name) => db.transaction().execute(body(name)));
    const urgent = Array.from({ length: PRIORITY_TURNS_IN_A_ROW + 2 }, (_, i) =>
      priorityTransaction(db, body(`priority ${i + 1}`)),
    );
    // Every one of them waits for the held transaction before it is released.
    await expect.poll(() => dialect.stats().waiting).toBe(plain.length + urgent.length);
    first.release();
    await Promise.all([first.done, ...plain, ...urgent]);
    expect(order).toEqual([
      'first began',
      'first ends',
      'priority 1',
      'priority 2',
      'priority 3',
      'priority 4',
      // After four turns ahead of it, the transaction that waited longest begins.
      'plain 1',
      'priority 5',
      'priority 6',
      'plain 2',
    ]);
  });

  it('never runs another caller’s query inside a transaction', async () => {
    const order: string[] = [];
    const held = await heldTransaction(order, 'undone', true);
    const seen = sql<{
      labels: string[];
    }>`select coalesce(array_agg(label), '{}') as labels from marks`.execute(db);
    held.release();
    await expect(held.done).rejects.toThrow('undone is rolled back');
    // Had the query run inside the transaction, it would have seen the transaction's row.
    expect((await seen).rows[0].labels).not.toContain('undone');
  });

  it('sends bulk work one statement at a time, letting other queries go between', async () => {
    const order: string[] = [];
    const bulk = (name: string) =>
      asBulkWork(() => sql`select ${name}::text`.execute(db)).then(() => order.push(name));
    const batches = [bulk('batch 1'), bulk('batch 2'), bulk('batch 3')];
    const ping = sql`select 1`.execute(db).then(() => order.push('ping'));
    await Promise.all([...batches, ping]);
    // Sent after all three, the ping is answered before the second: it waited for one.
    expect(order.filter((name) => name !== 'ping')).toEqual(['batch 1', 'batch 2', 'batch 3']);
    expect(order.indexOf('ping')).toBeLessThan(order.indexOf('batch 2'));
  });

  it('keeps bulk work going after one of its statements fails', async () => {
    const failed = asBulkWork(() => sql`select no_such_column from marks`.execute(db));
    await expect(failed).rejects.toThrow();
    const next = await asBulkWork(() => sql<{ n: number }>`select 7 as n`.execute(db));
    expect(next.rows).toEqual([{ n: 7 }]);
  });
});
