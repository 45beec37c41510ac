import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { sql, type QueryResult, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BACKED_UP_TABLES, type BackedUpTable } from './backup-tables.ts';
import type { BlobList } from './blob-list.ts';
import type { BlobRow } from './metadata-lines.ts';
import { tidArray, type DeltaPositions } from './delta-positions.ts';
import { DeltaReader, type WrittenSince } from './delta-reader.ts';
import { integer, scopeCondition } from './scope-conditions.ts';
import { rowPositionOf, RowPositions } from './row-positions.ts';

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
  /**
   * The embedded database: a delta reads its tables' row positions with `COPY … TO
   * '/dev/blob'`, a range of blocks (or a table scoped through a join) per message, instead
   * of a cursor's rows (each row of a result is parsed and posted by the database's worker).
   * Never on PostgreSQL, where it would write a file of the server.
   */
  copyToBlob?: boolean;
  /**
   * Told once the `blobs` table's lines are in the file, while the dump goes on with the
   * tables after it: the binaries can be written meanwhile (docs/backup.md, "Runs").
   */
  onBlobsDumped?: (blobs: DumpedBlobs) => void;
  /**
   * Told a delta's new blob rows (content and size, in SHA-256 order) as soon as their
   * positions are read, before their lines are written, when the way they were read learned
   * them: the pack starts there, beside the rest of the dump (docs/backup.md, "Eleventh
   * round"). `onBlobsDumped` is still told after.
   */
  onDeltaBlobs?: (blobs: { rows: BlobRow[]; bytes: number }) => void;
  /**
   * A full dump's blob rows, a page at a time as they are read, for a pack that starts before
   * they are all in the file (docs/backup.md, "Runs"); ended once they are.
   */
  blobList?: BlobList;
}

/** The blob rows of a dump, once they are in its file. */
export interface DumpedBlobs {
  /** The file's length when they were in: every blob row lies before this byte. */
  end: number;
  /** How many blob rows it wrote and their sizes (a full dump: every blob of the snapshot). */
  count: number;
  bytes: number;
}

export interface DeltaSince {
  /**
   * The base's snapshot's xmin (64 bits): a row whose `xmin` is at least this was written
   * after the base's snapshot or by a transaction still running then, so it goes in.
   */
  sinceXmin: bigint;
  /** The base's `ids/` directory: the rows it held, to find those that vanished since. */
  previousIdsDir: string;
  /** The blobs the base covered, as its manifest counts them. */
  previousBlobs: { count: number; bytes: number };
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

/**
 * Writes every backed-up row the selection covers to `file`, one JSON line each:
 * `{"table":"nodes","at":65537,"row":{...}}`, the row as PostgreSQL's own `row_to_json` writes
 * it (full timestamps, JSON documents as they are, big numbers exact), so a restore hands it
 * back with `jsonb_populate_recordset` and loses nothing. Everything is read in `tx`, the one
 * snapshot: a full dump reads each table through a cursor, a page per fetch; a delta reads
 * each table's row positions, then only the rows it writes (see dumpTableDelta).
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
  let length = 0;
  const write = async (line: string) => {
    hash.update(line);
    length += Buffer.byteLength(line);
    if (!out.write(line)) await Promise.race([once(out, 'drain'), failed]);
  };
  // An empty write's callback runs once everything written before it is in the file.
  const inFile = () =>
    Promise.race([new Promise((resolve) => out.write('', resolve)), failed]).then(() => length);
  // Each table's list of positions is written while the database reads the next tables: its
  // encoding and checksum on this thread then overlap the database's work instead of making it
  // wait (docs/backup.md, "Tenth round"). Awaited once the tables are dumped, in table order.
  const lists: Promise<readonly [string, string]>[] = [];
  try {
    const since = target.delta && (await writtenSince(tx, target.delta));
    const delta = since && new DeltaReader(tx, selection, since, target);
    for (const spec of BACKED_UP_TABLES) {
      if (spec.builds && selection.excludeBuilds) continue;
      if (spec.properties && !selection.includeProperties) continue;
      const blobs = { count: 0, bytes: 0 };
      let positions = new RowPositions();
      let dumped: { count: number; changed: number };
      if (delta) {
        const read = await delta.positionsOf(spec);
        if (read.blobRows && target.onDeltaBlobs)
          target.onDeltaBlobs(inContentOrder(read.blobRows));
        positions = read.listed();
        dumped = await dumpTableDelta({ tx, spec, selection, positions, write, blobs }, read);
        // A full dump counts its blob rows as it writes them; a delta writes only the new
        // ones, and its scan of positions counted every covered one.
        if (spec.table === 'blobs') [result.blobCount, result.blobBytes] = [read.count, read.bytes];
      } else
        dumped = await dumpTable({ tx, spec, selection, positions, write, blobs }, target.blobList);
      result.counts[spec.table] = dumped.count;
      if (spec.table === 'blobs') {
        target.blobList?.end();
        if (!since) [result.blobCount, result.blobBytes] = [blobs.count, blobs.bytes];
        target.onBlobsDumped?.({ end: await inFile(), ...blobs });
      }
      lists.push(savedList(positions, target.idsDir, spec.table));
      if (!delta) continue;
      result.changed[spec.table] = dumped.changed;
      const vanished = positions.vanishedFrom(await delta.previousOf(spec));
      if (vanished.length > 0) result.vanished[spec.table] = vanished;
      delta.forget(spec);
    }
    for (const [file, sha256] of await Promise.all(lists)) result.files[file] = sha256;
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    result.files['metadata.jsonl'] = hash.digest('hex');
    return result;
  } finally {
    out.destroy();
    // A failed dump's directory is removed by the caller: no list may still be writing there.
    await Promise.allSettled(lists);
  }
}

/** A delta's new blob rows sorted by SHA-256 (bytewise: lowercase hex), with their bytes. */
function inContentOrder(rows: BlobRow[]) {
  const sorted = [...rows].sort(bySha256);
  return { rows: sorted, bytes: sorted.reduce((sum, row) => sum + row.size, 0) };
}

/** Starts writing a table's list of positions; answers its file's name and SHA-256. */
function savedList(positions: RowPositions, idsDir: string, table: string) {
  const saved = positions.save(idsDir, table).then((sha256) => [`ids/${table}`, sha256] as const);
  saved.catch(() => undefined); // awaited with the others once the tables are dumped
  return saved;
}

/**
 * Whether a row was written since the base's snapshot, as an SQL condition: its `xmin` (the
 * transaction that wrote that version of the row) is at least the base's xmin. `age(xmin)`
 * is how many transactions ago that was, counted from this transaction's stable "now"
 * (32-bit arithmetic, right for any row less than 2^31 transactions old, which every live row
 * is: PostgreSQL freezes before); the base's xmin's own age, read once here in the same
 * transaction, is the bound. A frozen or bootstrap xmin (0 to 2) has the greatest age and
 * reads as old, as it is. Comparing with the xmin rather than asking `pg_visible_in_snapshot`
 * also takes rows written in a savepoint of a transaction that was running at the base's
 * snapshot: a snapshot lists only top-level transactions, and a subtransaction's id is above
 * its parent's. One integer comparison a row: the text casts that widened each xmin to 64
 * bits before cost the database several times the scan.
 */
async function writtenSince(tx: Database, delta: DeltaSince): Promise<WrittenSince> {
  const base = (delta.sinceXmin & 0xffffffffn).toString();
  const { rows } = await sql<{ age: number }>`select age(${sql.lit(base)}::xid) as age`.execute(tx);
  const age = sql.lit(integer(Number(rows[0].age)));
  return (alias = 't') => sql<boolean>`age(${sql.ref(`${alias}.xmin`)}) <= ${age}`;
}

/** One table being dumped: where its lines and row positions go. */
interface TableDump {
  tx: Database;
  spec: BackedUpTable;
  selection: DumpSelection;
  positions: RowPositions;
  write: (line: string) => Promise<void>;
  /** The blob rows written, counted (the `blobs` table only). */
  blobs: { count: number; bytes: number };
}

const lineMaker = (table: string) => {
  const prefix = `{"table":${JSON.stringify(table)},"at":`;
  return (at: number, text: string) => `${prefix}${at},"row":${text}}\n`;
};

/** A row as a dump reads it: its position, its JSON, and a blob's content and size. */
interface DumpedRow {
  at: string;
  row: string;
  sha256: string | null;
  size: string | null;
}

/** A full dump of one table: every row it covers, through one cursor, a page per fetch. */
async function dumpTable(
  { tx, spec, selection, positions, write, blobs }: TableDump,
  blobList?: BlobList,
) {
  const lineOf = lineMaker(spec.table);
  // One cursor per table: the table is read once, a page per fetch. Paging by `ctid > last`
  // made each page scan (and sort) the rest of the table and evaluate the scope again, so
  // a million rows took quadratic time.
  const cursor = sql.id(`backup_${spec.table}`);
  const order = spec.table === 'blobs' ? await blobOrder(tx) : sql``;
  await sql`declare ${cursor} no scroll cursor for
    select t.ctid::text as at, ${rowJson} as row, ${blobSha256(spec)} as sha256,
           ${blobSize(spec)} as size
      from ${sql.table(spec.table)} t
    where ${scopeCondition(spec, selection)} ${order}`.execute(tx);
  const fetchPage = (): Promise<QueryResult<DumpedRow>> => {
    const fetched = sql<DumpedRow>`fetch ${sql.raw(String(PAGE))} from ${cursor}`.execute(tx);
    fetched.catch(() => undefined); // awaited in turn, or before the cursor is closed
    return fetched;
  };
  let count = 0;
  // The next page is asked for before this one is turned into lines and written: the
  // database reads it meanwhile instead of waiting for this thread (docs/backup.md, "Eleventh
  // round"). Queries on one connection run in the order they are sent.
  let next: Promise<QueryResult<DumpedRow>> | undefined = fetchPage();
  try {
    while (next) {
      const { rows }: QueryResult<DumpedRow> = await next;
      next = rows.length < PAGE ? undefined : fetchPage();
      let page = '';
      for (const { at, row: text, size } of rows) {
        const position = rowPositionOf(at);
        positions.add(position);
        page += lineOf(position, text);
        if (size !== null) countBlob(blobs, size);
      }
      // One write a page: a write (and its await) a row cost more than reading the row.
      if (page) await write(page);
      if (spec.table === 'blobs') blobList?.add(rows as { sha256: string; size: string }[]);
      count += rows.length;
    }
  } finally {
    await next?.catch(() => undefined);
    await sql`close ${cursor}`.execute(tx);
  }
  return { count, changed: count };
}

/**
 * A row as JSON text. `row_to_json` writes the text straight from the row, its columns in
 * table order; `to_jsonb(t)::text` first builds a binary document and sorts its keys, which
 * cost the embedded database about twice the time (docs/backup.md, "Ninth round"). A restore
 * reads both the same (`jsonb_populate_recordset` matches keys by name).
 */
const rowJson = sql`row_to_json(t)::text`;

/**
 * Blobs in SHA-256 order (bytewise, as JavaScript compares): a backup's packs and the merge
 * against earlier packs' sorted indexes read this list in that order. Where the database's
 * collation is bytewise already (the embedded database's is C), a plain `order by` lets the
 * planner merge `blobs`' primary key with `nodes_sha256_repository`, streaming from the first
 * row; `collate "C"` on another collation makes it hash and sort every row first.
 */
async function blobOrder(tx: Database): Promise<RawBuilder<unknown>> {
  const { rows } = await sql<{ bytewise: boolean }>`
    select datcollate in ('C', 'POSIX') as bytewise from pg_database
     where datname = current_database()`.execute(tx);
  return rows[0]?.bytewise ? sql`order by t.sha256` : sql`order by t.sha256 collate "C"`;
}

/** Orders blob rows by SHA-256 as the packs do: bytewise, which lowercase hex compares as. */
const bySha256 = (a: { sha256: string }, b: { sha256: string }) =>
  a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0;

/** A blob row's size as text (exact at any size), selected beside the `blobs` table's rows. */
const blobSize = (spec: BackedUpTable) => (spec.table === 'blobs' ? sql`t.size::text` : sql`null`);
const blobSha256 = (spec: BackedUpTable) => (spec.table === 'blobs' ? sql`t.sha256` : sql`null`);

function countBlob(blobs: { count: number; bytes: number }, size: string) {
  blobs.count += 1;
  blobs.bytes += Number(size);
}

/**
 * A delta of one table, once its row positions are known (DeltaReader): only the rows the
 * delta writes, fetched by position (a TID scan, a thousand a statement). Turning a row into
 * JSON costs the database some fifty times reading its position, so a delta after a 1 % change
 * costs about a scan, or less (docs/backup.md, "Eighth round").
 */
async function dumpTableDelta(
  { tx, spec, write, blobs }: TableDump,
  { count, wanted }: DeltaPositions,
) {
  const lineOf = lineMaker(spec.table);
  // A delta's blob rows are few; they are written at the end, in SHA-256 order.
  const blobLines: { sha256: string; line: string }[] = [];
  for (let start = 0; start < wanted.length; start += PAGE) {
    const tids = tidArray(wanted.slice(start, start + PAGE));
    const { rows } = await sql<DumpedRow>`
      select t.ctid::text as at, ${rowJson} as row,
             ${blobSha256(spec)} as sha256, ${blobSize(spec)} as size
        from ${sql.table(spec.table)} t where t.ctid = any(${tids}::tid[])`.execute(tx);
    if (spec.table === 'blobs')
      for (const { at, row, sha256, size } of rows) {
        blobLines.push({ sha256: sha256!, line: lineOf(rowPositionOf(at), row) });
        countBlob(blobs, size!);
      }
    else if (rows.length > 0)
      await write(rows.map(({ at, row }) => lineOf(rowPositionOf(at), row)).join(''));
  }
  if (blobLines.length > 0)
    await write(
      blobLines
        .sort(bySha256)
        .map(({ line }) => line)
        .join(''),
    );
  return { count, changed: wanted.length };
}
