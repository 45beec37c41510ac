import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BACKED_UP_TABLES, type BackedUpTable } from './backup-tables.ts';
import { contains, readPositions, rowPositionOf, RowPositions } from './row-positions.ts';

/** Rows read per statement: memory stays flat whatever the table's size. */
const PAGE = 1000;

export interface DumpSelection {
  /** The repositories covered; rows of others are left out. */
  repositoryIds: number[];
  excludeBuilds: boolean;
  includeProperties: boolean;
}

/**
 * Where the dump writes its tables' row positions (`ids/<table>`) and, for a delta, what it
 * is a delta of (docs/backup.md, "Incremental metadata").
 */
export interface DumpTarget {
  idsDir: string;
  delta?: DeltaSince;
}

export interface DeltaSince {
  /**
   * The base's snapshot's xmin (64 bits): a row whose `xmin` is at least this was written
   * after the base's snapshot or by a transaction still running then, so it goes in.
   */
  sinceXmin: bigint;
  /** This snapshot's xmax (64 bits): turns a row's 32-bit `xmin` into its 64-bit one. */
  currentXmax: bigint;
  /** The base's `ids/` directory: the rows it held, to find those that vanished since. */
  previousIdsDir: string;
}

export interface DumpResult {
  /** Rows per table in the snapshot (a delta writes only the changed ones of them). */
  counts: Record<string, number>;
  blobCount: number;
  blobBytes: number;
  /** A delta's rows per table written (new or changed), and the positions that vanished. */
  changed: Record<string, number>;
  vanished: Record<string, number[]>;
  /** SHA-256 of the files written (`metadata.jsonl`, `ids/<table>`): a restore checks them. */
  files: Record<string, string>;
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
  target: DumpTarget,
): Promise<DumpResult> {
  const out = createWriteStream(file, { flags: 'wx' });
  const failed = once(out, 'error').then(([error]) => {
    throw error;
  });
  failed.catch(() => undefined);
  const result: DumpResult = {
    counts: {},
    blobCount: 0,
    blobBytes: 0,
    changed: {},
    vanished: {},
    files: {},
  };
  const hash = createHash('sha256');
  const write = async (line: string) => {
    hash.update(line);
    if (!out.write(line)) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    for (const spec of BACKED_UP_TABLES) {
      if (spec.builds && selection.excludeBuilds) continue;
      if (spec.properties && !selection.includeProperties) continue;
      const positions = new RowPositions();
      const previous = target.delta
        ? await readPositions(join(target.delta.previousIdsDir, spec.table))
        : undefined;
      const delta = target.delta && previous && { ...target.delta, previous };
      const dumped = await dumpTable(tx, spec, selection, delta, positions, write);
      result.counts[spec.table] = dumped.count;
      result.files[`ids/${spec.table}`] = await positions.save(target.idsDir, spec.table);
      if (!previous) continue;
      result.changed[spec.table] = dumped.changed;
      const vanished = positions.vanishedFrom(previous);
      if (vanished.length > 0) result.vanished[spec.table] = vanished;
    }
    const blobs = await sql<{ count: string; bytes: string | null }>`
      select count(*)::text as count, sum(t.size)::text as bytes from blobs t
      where ${scopeCondition({ table: 'blobs', scope: 'blob' }, selection)}`.execute(tx);
    result.blobCount = Number(blobs.rows[0]?.count ?? 0);
    result.blobBytes = Number(blobs.rows[0]?.bytes ?? 0);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    result.files['metadata.jsonl'] = hash.digest('hex');
    return result;
  } finally {
    out.destroy();
  }
}

/**
 * Whether a row was written since the base's snapshot, in SQL: its 32-bit `xmin` widened to
 * 64 bits against this snapshot's xmax (a live row's xmin is less than 2^31 transactions old;
 * a frozen row keeps its raw xmin, which reads as old, as it is), then compared with the
 * base's xmin. Comparing with the xmin, not asking `pg_visible_in_snapshot`, also takes rows
 * written in a savepoint of a transaction that was running at the base's snapshot: the
 * snapshot lists only top-level transactions, and a subtransaction's id is above its parent's.
 */
function writtenSince(delta: DeltaSince): RawBuilder<boolean> {
  const epoch = delta.currentXmax >> 32n;
  const low = delta.currentXmax & 0xffffffffn;
  const int = (value: bigint) => sql.raw(`${value.toString()}::bigint`);
  const xmin = sql`t.xmin::text::bigint`;
  return sql<boolean>`case when ${xmin} < 3 then false
    when ${xmin} <= ${int(low)} then ${int(epoch << 32n)} + ${xmin} >= ${int(delta.sinceXmin)}
    else ${int((epoch - 1n) << 32n)} + ${xmin} >= ${int(delta.sinceXmin)} end`;
}

/** A delta's base: its snapshot, and the positions of one table's rows in it. */
type TableDelta = DeltaSince & { previous: Float64Array };

async function dumpTable(
  tx: Database,
  spec: BackedUpTable,
  selection: DumpSelection,
  delta: TableDelta | undefined,
  positions: RowPositions,
  write: (line: string) => Promise<void>,
): Promise<{ count: number; changed: number }> {
  const prefix = `{"table":${JSON.stringify(spec.table)},"at":`;
  const lineOf = (at: string, text: string) => `${prefix}${rowPositionOf(at)},"row":${text}}\n`;
  // One cursor per table: the table is read once, a page per fetch. Paging by `ctid > last`
  // made each page scan (and sort) the rest of the table and evaluate the scope again, so
  // a million rows took quadratic time.
  const cursor = sql.id(`backup_${spec.table}`);
  // Blobs in SHA-256 order (bytewise, as JavaScript compares): a backup's packs and the
  // merge against earlier packs' sorted indexes read this list in that order.
  const order = spec.table === 'blobs' ? sql`order by t.sha256 collate "C"` : sql``;
  // A delta reads every row's position (to find the vanished ones) but turns into JSON only
  // the rows written since its base.
  const row = delta
    ? sql`case when ${writtenSince(delta)} then to_jsonb(t)::text end`
    : sql`to_jsonb(t)::text`;
  await sql`declare ${cursor} no scroll cursor for
    select t.ctid::text as at, ${row} as row from ${sql.table(spec.table)} t
    where ${scopeCondition(spec, selection)} ${order}`.execute(tx);
  let count = 0;
  let changed = 0;
  // Rows not written since the base that the base did not hold: they came into the backup's
  // scope since (a blob an included item uses again), so they go in too.
  const entered: string[] = [];
  // A delta's blob rows are few; they are written at the end, in SHA-256 order.
  const blobLines: string[] = [];
  const deltaBlobs = delta !== undefined && spec.table === 'blobs';
  try {
    for (;;) {
      const { rows } = await sql<{
        at: string;
        row: string | null;
      }>`fetch ${sql.raw(String(PAGE))} from ${cursor}`.execute(tx);
      let page = '';
      for (const { at, row: text } of rows) {
        positions.add(rowPositionOf(at));
        if (text === null) {
          if (delta && !contains(delta.previous, rowPositionOf(at))) entered.push(at);
          continue;
        }
        if (deltaBlobs) blobLines.push(lineOf(at, text));
        else page += lineOf(at, text);
        changed += 1;
      }
      // One write a page: a write (and its await) a row cost more than reading the row.
      if (page) await write(page);
      count += rows.length;
      if (rows.length < PAGE) break;
    }
  } finally {
    await sql`close ${cursor}`.execute(tx);
  }
  for (let start = 0; start < entered.length; start += PAGE) {
    const tids = `{${entered
      .slice(start, start + PAGE)
      .map((at) => `"${at}"`)
      .join(',')}}`;
    const { rows } = await sql<{ at: string; row: string }>`
      select t.ctid::text as at, to_jsonb(t)::text as row from ${sql.table(spec.table)} t
       where t.ctid = any(${tids}::tid[])`.execute(tx);
    const lines = rows.map(({ at, row: text }) => lineOf(at, text));
    if (deltaBlobs) blobLines.push(...lines);
    else if (lines.length > 0) await write(lines.join(''));
    changed += rows.length;
  }
  if (blobLines.length > 0) await write(sortedBySha256(blobLines).join(''));
  return { count, changed };
}

function sortedBySha256(lines: string[]): string[] {
  const keyed = lines.map((line) => ({
    line,
    sha256: /"sha256": "([0-9a-f]{64})"/.exec(line)![1],
  }));
  return keyed
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0))
    .map(({ line }) => line);
}
