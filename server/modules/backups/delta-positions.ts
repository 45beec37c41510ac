import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { countAndVisitWritten, scanOnce, scanRanges, type PositionScan } from './position-scans.ts';
import type { BlobRow } from './metadata-lines.ts';
import { contains, rowPositionOf, RowPositions } from './row-positions.ts';

/**
 * What a delta learns of one table before it reads any row's contents (docs/backup.md,
 * "Incremental metadata" and "Eighth round").
 */
export interface DeltaPositions {
  /** Rows of the table the snapshot covers. */
  count: number;
  /** The sum of their `size` column, when the table was read with sizes (`blobs`), else 0. */
  bytes: number;
  /** The rows the delta writes: written since the base, or covered now and not by the base. */
  wanted: number[];
  /** Every covered row's position (built when the table's list is written). */
  listed(): RowPositions;
  /**
   * Every row the base held is still there, the very version the base held: none vanished,
   * none was replaced at its position.
   */
  baseKeptWhole: boolean;
  /** Each wanted row's `detail` column (TableInDelta), when the table was read with one. */
  details?: string[];
  /**
   * `blobs`: each wanted row's content and size, when the way it was read learned them: the
   * pack can start before the rows' lines are written (docs/backup.md, "Eleventh round").
   */
  blobRows?: BlobRow[];
}

/** One table of a delta: how its rows are read, and the positions its base held (sorted). */
export interface TableInDelta {
  tx: Database;
  table: string;
  /** The rows the backup covers (the table's scope condition). */
  scope: RawBuilder<unknown>;
  written: RawBuilder<boolean>;
  previous: Float64Array;
  copyToBlob: boolean;
  /** No join decides which of its rows are covered: they can be read a range at a time. */
  joinFree: boolean;
  /** Adds up the covered rows' `size` column as it reads them (`blobs`). */
  sizes: boolean;
  /** A column read with each written row by countAndWritten (`nodes`' content). */
  detail?: RawBuilder<unknown>;
}

const scanOf = (table: TableInDelta, where = table.scope): PositionScan => ({
  tx: table.tx,
  table: table.table,
  where,
  written: table.written,
  copyToBlob: table.copyToBlob,
  sizes: table.sizes,
});

/**
 * Today's way, which holds whatever happened: every covered row's position and written flag.
 * A join-free table is read a range of blocks at a time.
 */
export async function scanEveryPosition(table: TableInDelta): Promise<DeltaPositions> {
  const positions = new RowPositions();
  const wanted: number[] = [];
  let keptFromBase = 0;
  let bytes = 0;
  const visit = (position: number, written: boolean, size: number) => {
    positions.add(position);
    bytes += size;
    const inBase = contains(table.previous, position);
    if (inBase && !written) keptFromBase += 1;
    if (written || !inBase) wanted.push(position);
  };
  if (table.joinFree) await scanRanges(scanOf(table), visit);
  else await scanOnce(scanOf(table), visit);
  return {
    count: positions.count,
    bytes,
    wanted,
    listed: () => positions,
    // Positions are unique: each base position seen unwritten is one base row kept as it was.
    baseKeptWhole: keptFromBase === table.previous.length,
  };
}

/**
 * A join-free table read by one count and the positions written since the base (both in one
 * pass over the table, a range of blocks at a time), when the count proves that every other
 * row is one the base held. Why that holds (docs/backup.md, "Eighth round"): a row visible now
 * and not written since the base (its xmin below the base's xmin) was committed before the
 * base's snapshot, so the base saw that very version at that very position; it was covered
 * then too, as its columns are the same and the covered repositories are (`scopeKept`). So the
 * unwritten rows now are among the base's rows not rewritten since; when there are as many of
 * them as of those, they are all of them, and nothing vanished. Answers undefined when the
 * count does not prove it: the caller scans every position.
 */
export async function countAndWritten(
  table: TableInDelta,
  scopeKept: boolean,
): Promise<DeltaPositions | undefined> {
  if (!table.joinFree || !scopeKept) return undefined;
  const written: number[] = [];
  const details: string[] = [];
  const count = await countAndVisitWritten(
    { ...scanOf(table), detail: table.detail },
    (at, detail) => {
      written.push(at);
      if (table.detail) details.push(detail);
    },
  );
  const rewrittenInBase = written.filter((position) => contains(table.previous, position)).length;
  if (count - written.length !== table.previous.length - rewrittenInBase) return undefined;
  return {
    count,
    bytes: 0, // a join-free table: never `blobs`
    wanted: written,
    listed: () => unionOf(table.previous, written),
    baseKeptWhole: rewrittenInBase === 0,
    details: table.detail ? details : undefined,
  };
}

/**
 * The base's positions with those written since (a position reused is listed once), merged
 * in order: both are sorted, so the list needs no sort of a million positions again.
 */
export function unionOf(previous: Float64Array, written: number[]): RowPositions {
  const added = Float64Array.from(written).sort();
  const union = new Float64Array(previous.length + added.length);
  let [i, j, length] = [0, 0, 0];
  while (i < previous.length || j < added.length) {
    if (j === added.length || (i < previous.length && previous[i] < added[j]))
      union[length++] = previous[i++];
    else {
      if (i < previous.length && previous[i] === added[j]) i += 1;
      union[length++] = added[j++];
    }
  }
  return RowPositions.fromSorted(union.subarray(0, length));
}

/**
 * The blob rows, when no item the base held is gone or replaced (`nodes` kept whole): read
 * without the join against every item. A blob row at a position the base held and not written
 * since is the very row the base held, which an item the base held uses, and that item is
 * still there: it is covered. Any other blob row (written since, or not in the base) is
 * checked against the items one by one by its SHA-256 (an index look-up each). The covered
 * rows' bytes are added up on the way: the scan reads each row's size with its position.
 */
export async function blobsBeside(
  table: TableInDelta,
  usedByCoveredItem: RawBuilder<unknown>,
): Promise<DeltaPositions> {
  const positions = new RowPositions();
  const candidates: number[] = [];
  let bytes = 0;
  await scanRanges({ ...scanOf(table, sql`true`), sizes: true }, (position, written, size) => {
    if (written || !contains(table.previous, position)) return void candidates.push(position);
    positions.add(position);
    bytes += size;
  });
  const wanted: number[] = [];
  for (let start = 0; start < candidates.length; start += CANDIDATES_PER_STATEMENT) {
    const tids = tidArray(candidates.slice(start, start + CANDIDATES_PER_STATEMENT));
    // In the select list, the look-up runs per row through the index on the items' SHA-256;
    // in the where clause the planner may turn it into a join that reads every item.
    const { rows } = await sql<{ position: string; used: number | null; size: string }>`
      select t.ctid::text as position, (${usedByCoveredItem} limit 1) as used,
             t.size::text as size
        from blobs t where t.ctid = any(${tids}::tid[])`.execute(table.tx);
    for (const row of rows) {
      if (row.used === null) continue;
      const position = rowPositionOf(row.position);
      positions.add(position);
      wanted.push(position);
      bytes += Number(row.size);
    }
  }
  return {
    count: positions.count,
    bytes,
    wanted,
    listed: () => positions,
    baseKeptWhole: false, // not asked of blobs
  };
}

const CANDIDATES_PER_STATEMENT = 1000;

/** What blobsOfNewItems needs to know of the items (`nodes`) besides the blob rows. */
export interface ItemsInDelta {
  /** Whether item `n` is one the backup covers. */
  covered: RawBuilder<boolean>;
  /** Whether item `n` was written since the base. */
  itemWritten: RawBuilder<boolean>;
  /** The items the delta writes (written since the base, or new to its scope). */
  newItems: number[];
  /** Their contents (SHA-256, '' for a folder), when the pass over `nodes` read them. */
  newContents?: string[];
  /** The blobs the base covered, as its manifest counts them. */
  base: { count: number; bytes: number };
}

/**
 * The blob rows when no item the base held is gone or replaced (`nodes` kept whole), without
 * reading every blob row's position (docs/backup.md, "Tenth round"). Each blob the base held
 * is used by an item the base held; that item is still there, unwritten and covered, so the
 * blob's row is still there (an item's blob cannot be deleted). If that row was not written
 * since, it is the very row the base held, at its position: nothing of the base's blob rows
 * vanished. So the delta's blob rows are the base's plus:
 *  - the blob rows written since that a covered item uses, when no unwritten covered item uses
 *    any of them: those that one does use are rows of the base written again (a deploy of the
 *    same content claims its blob row), which moved; then this answers undefined and the
 *    caller reads every blob row's position;
 *  - the rows, not written since and not the base's, of blobs the new items use (content
 *    stored before, used again).
 * The rows written since (`blobWritten`, by the transaction that wrote them: `written_xid`,
 * migration 0061) are read through their index, not by a pass over the table (docs/backup.md,
 * "Twelfth round"), and checked against the items; the new items' other blobs by their contents,
 * which the pass over `nodes` read with the new items' positions (docs/backup.md, "Eleventh
 * round"): none to look up when every new item has new content. Each row taken comes back
 * with its content and size (`blobRows`), for the pack.
 */
export async function blobsOfNewItems(
  table: TableInDelta,
  items: ItemsInDelta,
  blobWritten: RawBuilder<boolean>,
): Promise<DeltaPositions | undefined> {
  if (items.base.count !== table.previous.length) return undefined;
  const wanted: number[] = [];
  const blobRows: BlobRow[] = [];
  let bytes = items.base.bytes;
  const take = (at: string, size: string, sha256: string) => {
    const position = rowPositionOf(at);
    if (contains(table.previous, position)) return false;
    wanted.push(position);
    blobRows.push({ sha256, size: Number(size) });
    bytes += Number(size);
    return true;
  };
  // Per blob row written since: null when no covered item uses it, 0 when an unwritten one
  // does (a row of the base, moved), 1 when only items written since do.
  const usedBy = sql`(select min(case when ${items.itemWritten} then 1 else 0 end) from nodes n
    where n.sha256 = t.sha256 and ${items.covered})`;
  let baseRowMoved = false;
  await eachWrittenBlobRow<BlobRowRead & { used: number | null }>(
    table.tx,
    sql`select t.ctid::text as at, t.size::text as size, t.sha256, ${usedBy} as used
          from blobs t where ${blobWritten}`,
    (rows) => {
      for (const row of rows) {
        if (row.used === 0) baseRowMoved = true;
        else if (row.used === 1 && !take(row.at, row.size, row.sha256)) baseRowMoved = true;
      }
      return !baseRowMoved;
    },
  );
  if (baseRowMoved) return undefined;
  // The new items' contents whose rows the pass did not take: stored before, used again.
  const taken = new Set(blobRows.map((blob) => blob.sha256));
  const contents = items.newContents ?? (await contentsOfItems(table.tx, items.newItems));
  const reused = [...new Set(contents)].filter((sha256) => sha256 !== '' && !taken.has(sha256));
  for (let start = 0; start < reused.length; start += CANDIDATES_PER_STATEMENT) {
    const { rows } = await sql<BlobRowRead>`
      select t.ctid::text as at, t.size::text as size, t.sha256 from blobs t
       where t.sha256 = any(${reused.slice(start, start + CANDIDATES_PER_STATEMENT)}::text[])
         and not coalesce(${blobWritten}, false)`.execute(table.tx);
    for (const row of rows) take(row.at, row.size, row.sha256);
  }
  return {
    count: table.previous.length + wanted.length,
    bytes,
    wanted,
    listed: () => unionOf(table.previous, wanted),
    baseKeptWhole: false, // not asked of blobs
    blobRows,
  };
}

/** A blob row as the delta reads it: its position, size (text: exact) and content. */
interface BlobRowRead {
  at: string;
  size: string;
  sha256: string;
}

/** Rows of a written-blob query read per fetch: some 100 bytes each. */
const WRITTEN_BLOBS_PAGE = 10_000;

/**
 * Runs `query` (blob rows by `written_xid`) through a cursor, a page at a time, until `visit`
 * answers false or the rows end. The planner is told not to read the whole table: the column's
 * statistics may be missing (the embedded database runs no autovacuum), and without them it
 * guesses that a third of the table matches, where a delta's rows are a few of it.
 */
async function eachWrittenBlobRow<Row>(
  tx: Database,
  query: RawBuilder<unknown>,
  visit: (rows: Row[]) => boolean,
) {
  const { rows } = await sql<{ seqscan: string }>`
    select current_setting('enable_seqscan') as seqscan`.execute(tx);
  await sql`select set_config('enable_seqscan', 'off', true)`.execute(tx);
  await sql`declare backup_written_blobs no scroll cursor for ${query}`.execute(tx);
  await sql`select set_config('enable_seqscan', ${rows[0].seqscan}, true)`.execute(tx);
  try {
    for (;;) {
      const page = await sql<Row>`
        fetch ${sql.raw(String(WRITTEN_BLOBS_PAGE))} from backup_written_blobs`.execute(tx);
      if (!visit(page.rows) || page.rows.length < WRITTEN_BLOBS_PAGE) return;
    }
  } finally {
    await sql`close backup_written_blobs`.execute(tx);
  }
}

/** The contents of items by their positions (when the pass over `nodes` did not read them). */
async function contentsOfItems(tx: Database, items: number[]): Promise<string[]> {
  const contents: string[] = [];
  for (let start = 0; start < items.length; start += CANDIDATES_PER_STATEMENT) {
    const { rows } = await sql<{ sha256: string }>`
      select n.sha256 from nodes n
       where n.ctid = any(${tidArray(items.slice(start, start + CANDIDATES_PER_STATEMENT))}::tid[])
         and n.sha256 is not null`.execute(tx);
    for (const row of rows) contents.push(row.sha256);
  }
  return contents;
}

/** A row position as a `tid` literal: block × 65536 + offset → `(block,offset)`. */
const tidOf = (position: number) => `(${Math.floor(position / 65536)},${position % 65536})`;

/** Row positions as the text of a `tid[]` (bound as one parameter, cast with `::tid[]`). */
export const tidArray = (positions: number[]) =>
  `{${positions.map((position) => `"${tidOf(position)}"`).join(',')}}`;
