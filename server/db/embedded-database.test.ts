import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, sql, type Generated } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountSmallDisk, type SmallDisk } from '../../tests/helpers/small-disk.ts';
import { EmbeddedDatabase } from './embedded-database.ts';
import { PGliteDialect } from './pglite-dialect.ts';

interface Notes {
  notes: { id: Generated<number>; text: string };
}

const MiB = 1024 * 1024;

/**
 * The embedded database on a disk that fills up: a 128 MiB tmpfs, of which the cluster takes
 * 40 and each WAL segment it adds 16. PostgreSQL needs room for a whole new WAL segment (16 MiB) when its WAL reaches
 * the end of one and no segment was made ready earlier; switchToNewWalSegment gets there at
 * once, so with a few MiB left the next write finds no room for its WAL, which PostgreSQL
 * answers with a PANIC.
 */
let disk: SmallDisk;
let database: EmbeddedDatabase;
let db: Kysely<Notes>;

beforeAll(async () => {
  disk = mountSmallDisk('depot-embedded-disk-', 128 * MiB);
  database = new EmbeddedDatabase(disk.path);
  await database.waitReady;
  db = new Kysely<Notes>({ dialect: new PGliteDialect(database) });
  await sql`create table notes (id serial primary key, text text not null)`.execute(db);
}, 120000);

afterAll(async () => {
  try {
    await db?.destroy();
  } finally {
    disk?.release();
  }
});

/**
 * Ends the current WAL segment (pg_switch_wal) until the next write goes to a segment that
 * does not exist yet: checkpoints keep old segments as ready-made future ones.
 */
async function switchToNewWalSegment(run: Kysely<Notes>) {
  const walDir = join(disk.path, 'db', 'pg_wal');
  for (;;) {
    await sql`select pg_switch_wal()`.execute(run);
    const { rows } = await sql<{
      name: string;
    }>`select pg_walfile_name(pg_current_wal_insert_lsn()) as name`.execute(run);
    if (!existsSync(join(walDir, rows[0].name))) return;
    // The segment was made ready earlier: write a little to it, so that the next switch ends it.
    await sql`select pg_logical_emit_message(false, 'depot-test', 'x')`.execute(run);
  }
}

const texts = async () =>
  (await db.selectFrom('notes').select('text').orderBy('id').execute()).map((row) => row.text);

describe('the embedded database when a WAL write finds its disk full', () => {
  it('fails that write and the queries behind it, refuses to start while full, and starts again with every answered commit once there is room', async () => {
    await db.insertInto('notes').values({ text: 'answered before' }).execute();
    await switchToNewWalSegment(db);
    disk.fill(4 * MiB);

    const [write, queued] = await Promise.allSettled([
      db.insertInto('notes').values({ text: 'never answered' }).execute(),
      db.selectFrom('notes').select('text').execute(),
    ]);
    expect(write).toMatchObject({
      status: 'rejected',
      reason: { code: '53100', severity: 'PANIC' },
    });
    expect(queued).toMatchObject({ status: 'rejected', reason: { code: '53100' } });

    // Starting again replays the WAL and then writes to it: while the disk is full, each
    // query is told why it cannot run, and no other start is tried until there is room.
    const startFailure = await texts().catch((error: unknown) => error);
    expect(startFailure).toMatchObject({ code: '53100' });
    await expect(texts()).rejects.toBe(startFailure);

    disk.empty();
    expect(await texts()).toEqual(['answered before']);
    await db.insertInto('notes').values({ text: 'written after' }).execute();
    expect(await texts()).toEqual(['answered before', 'written after']);
  }, 120000);

  it('does not let a transaction go on in the database that started after the one it began in', async () => {
    const attempt = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ text: 'in the lost transaction' }).execute();
      await switchToNewWalSegment(trx);
      disk.fill(8 * MiB);
      // About 2.6 MB of rows: their WAL outgrows its 1 MB of buffers before the commit, and
      // writing it out needs the next segment.
      const failure = await sql`insert into notes (text)
          select repeat(md5(random()::text), 40) from generate_series(1, 2000)`
        .execute(trx)
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: '53100' });
      disk.empty();
      // Sent to the new database, this would commit on its own: it must not run at all.
      await trx.insertInto('notes').values({ text: 'after the loss' }).execute();
    });

    await expect(attempt).rejects.toMatchObject({ code: '08006' });
    expect(await texts()).toEqual(['answered before', 'written after']);
  }, 120000);

  it('closes cleanly after having restarted', async () => {
    await db.destroy();
    expect(database.closed).toBe(true);
    await expect(database.query('select 1')).rejects.toThrow('The embedded database is closed');
  }, 60000);
});
