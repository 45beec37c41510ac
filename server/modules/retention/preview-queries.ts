import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** The preview's running figures, summed by the database rather than held here. */
export interface ChosenTotals {
  count: number;
  totalSize: number;
  freedBytes: number;
}

/**
 * Runs `work` with a session-local table of the files a preview chose (their content and
 * size), on one connection of its own: what the preview counts lives in the database, not
 * in this process's memory, however many files a policy takes. The table is dropped after.
 */
export async function withChosenTable<T>(
  db: Database,
  work: (session: Database, table: string) => Promise<T>,
): Promise<T> {
  const table = `retention_chosen_${randomBytes(6).toString('hex')}`;
  return db.connection().execute(async (session) => {
    await sql`create temporary table ${sql.table(table)}
      (sha256 text not null, size bigint not null)`.execute(session);
    try {
      return await work(session, table);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(session);
    }
  });
}

/** Adds a batch of chosen files to the table. */
export async function addChosen(
  session: Database,
  table: string,
  files: { sha256: string; size: number }[],
) {
  if (files.length === 0) return;
  await sql`insert into ${sql.table(table)} (sha256, size)
    select * from unnest(${files.map((file) => file.sha256)}::text[],
                         ${files.map((file) => file.size)}::bigint[])`.execute(session);
}

/**
 * The chosen files' count and sizes, and the bytes that would leave the disk: the size of
 * each content no file outside the choice holds (every file holding it, in any repository or
 * the trash, is chosen).
 */
export async function chosenTotals(session: Database, table: string): Promise<ChosenTotals> {
  const chosen = sql.table(table);
  // A temp table has no statistics until asked: without them the planner looks each content
  // up one at a time, which over a million files takes many seconds instead of one join.
  await sql`analyze ${chosen}`.execute(session);
  const { rows } = await sql<{ count: string; total_size: string; freed: string }>`
    with contents as (
      select sha256, count(*) as files, max(size) as size from ${chosen} group by sha256
    ),
    holders as (
      select n.sha256, count(*) as files from nodes n join contents c on c.sha256 = n.sha256
      group by n.sha256
    )
    select (select count(*) from ${chosen}) as count,
           (select coalesce(sum(size), 0) from ${chosen}) as total_size,
           (select coalesce(sum(c.size), 0) from contents c join holders h on h.sha256 = c.sha256
             where h.files <= c.files) as freed
  `.execute(session);
  const row = rows[0]!;
  return {
    count: Number(row.count),
    totalSize: Number(row.total_size),
    freedBytes: Number(row.freed),
  };
}
