import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BACKED_UP_TABLES, type BackedUpTable } from './backup-tables.ts';

/** Rows read per statement: memory stays flat whatever the table's size. */
const PAGE = 1000;

export interface DumpSelection {
  /** The repositories covered; rows of others are left out. */
  repositoryIds: number[];
  excludeBuilds: boolean;
  includeProperties: boolean;
}

export interface DumpResult {
  counts: Record<string, number>;
  blobCount: number;
  blobBytes: number;
}

const ids = (selection: DumpSelection) =>
  selection.repositoryIds.length > 0
    ? sql.join(selection.repositoryIds.map((id) => sql`${id}::int`))
    : sql`null`;

/** The condition that keeps a table's rows to the repositories covered. */
function scopeCondition(spec: BackedUpTable, selection: DumpSelection): RawBuilder<unknown> {
  const repos = ids(selection);
  const nodesOfRepos = sql`select n.id from nodes n where n.repository_id in (${repos})`;
  switch (spec.scope) {
    case 'all':
      return sql`true`;
    case 'repository-row':
      return sql`t.id in (${repos})`;
    case 'repository':
      return sql`t.repository_id in (${repos})`;
    case 'node':
      return sql`t.node_id in (${nodesOfRepos})`;
    case 'build':
      return sql`t.build_id in (select b.id from builds b where b.node_id in (${nodesOfRepos}))`;
    case 'blob':
      return sql`t.sha256 in (select n.sha256 from nodes n where n.repository_id in (${repos}))`;
  }
}

/**
 * Writes every backed-up row the selection covers to `file`, one JSON line each:
 * `{"table":"nodes","row":{...}}`, the row as PostgreSQL's own `to_jsonb` writes it (full
 * timestamps, JSON documents as they are, big numbers exact), so a restore hands it back
 * with `jsonb_populate_recordset` and loses nothing. Each table is read through a cursor of
 * `tx`, the one snapshot, a page per fetch.
 */
export async function dumpMetadata(
  tx: Database,
  file: string,
  selection: DumpSelection,
): Promise<DumpResult> {
  const out = createWriteStream(file, { flags: 'wx' });
  const failed = once(out, 'error').then(([error]) => {
    throw error;
  });
  failed.catch(() => undefined);
  const result: DumpResult = { counts: {}, blobCount: 0, blobBytes: 0 };
  const write = async (line: string) => {
    if (!out.write(line)) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    for (const spec of BACKED_UP_TABLES) {
      if (spec.builds && selection.excludeBuilds) continue;
      if (spec.properties && !selection.includeProperties) continue;
      result.counts[spec.table] = await dumpTable(tx, spec, selection, write);
    }
    const blobs = await sql<{ count: string; bytes: string | null }>`
      select count(*)::text as count, sum(t.size)::text as bytes from blobs t
      where ${scopeCondition({ table: 'blobs', scope: 'blob' }, selection)}`.execute(tx);
    result.blobCount = Number(blobs.rows[0]?.count ?? 0);
    result.blobBytes = Number(blobs.rows[0]?.bytes ?? 0);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    return result;
  } finally {
    out.destroy();
  }
}

async function dumpTable(
  tx: Database,
  spec: BackedUpTable,
  selection: DumpSelection,
  write: (line: string) => Promise<void>,
): Promise<number> {
  const prefix = `{"table":${JSON.stringify(spec.table)},"row":`;
  // One cursor per table: the table is read once, a page per fetch. Paging by `ctid > last`
  // made each page scan (and sort) the rest of the table and evaluate the scope again, so
  // a million rows took quadratic time.
  const cursor = sql.id(`backup_${spec.table}`);
  // Blobs in SHA-256 order (bytewise, as JavaScript compares): a backup's packs and the
  // merge against earlier packs' sorted indexes read this list in that order.
  const order = spec.table === 'blobs' ? sql`order by t.sha256 collate "C"` : sql``;
  await sql`declare ${cursor} no scroll cursor for
    select to_jsonb(t)::text as row from ${sql.table(spec.table)} t
    where ${scopeCondition(spec, selection)} ${order}`.execute(tx);
  let count = 0;
  try {
    for (;;) {
      const { rows } = await sql<{
        row: string;
      }>`fetch ${sql.raw(String(PAGE))} from ${cursor}`.execute(tx);
      // One write a page: a write (and its await) a row cost more than reading the row.
      if (rows.length > 0) await write(rows.map(({ row }) => `${prefix}${row}}\n`).join(''));
      count += rows.length;
      if (rows.length < PAGE) return count;
    }
  } finally {
    await sql`close ${cursor}`.execute(tx);
  }
}
