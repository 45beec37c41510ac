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
  /**
   * The embedded database: a delta reads its tables' row positions with `COPY … TO
   * '/dev/blob'`, all of a table's in one message, instead of a cursor's rows (each row of a
   * result is parsed and posted by the database's worker). Never on PostgreSQL, where it
   * would write a file of the server.
   */
  copyToBlob?: boolean;
  /**
   * Told once the `blobs` table's lines are in the file, while the dump goes on with the
   * tables after it: the binaries can be written meanwhile (docs/backup.md, "Runs").
   */
  onBlobsDumped?: (blobs: DumpedBlobs) => void;
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

/** The repositories' ids written into the statement: `COPY (query)` takes no parameters. */
const ids = (selection: DumpSelection) =>
  selection.repositoryIds.length > 0
    ? sql.join(selection.repositoryIds.map((id) => sql.lit(integer(id))))
    : sql`null`;

function integer(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`${value} is not an id`);
  return value;
}

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
 * `{"table":"nodes","at":65537,"row":{...}}`, the row as PostgreSQL's own `to_jsonb` writes
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
  try {
    const since = target.delta && (await writtenSince(tx, target.delta));
    for (const spec of BACKED_UP_TABLES) {
      if (spec.builds && selection.excludeBuilds) continue;
      if (spec.properties && !selection.includeProperties) continue;
      const positions = new RowPositions();
      const previous = target.delta
        ? await readPositions(join(target.delta.previousIdsDir, spec.table))
        : undefined;
      const blobs = { count: 0, bytes: 0 };
      const table = { tx, spec, selection, positions, write, blobs };
      const dumped =
        since && previous
          ? await dumpTableDelta(table, { written: since, previous }, target.copyToBlob ?? false)
          : await dumpTable(table);
      result.counts[spec.table] = dumped.count;
      if (spec.table === 'blobs') {
        if (!since) [result.blobCount, result.blobBytes] = [blobs.count, blobs.bytes];
        target.onBlobsDumped?.({ end: await inFile(), ...blobs });
      }
      result.files[`ids/${spec.table}`] = await positions.save(target.idsDir, spec.table);
      if (!previous) continue;
      result.changed[spec.table] = dumped.changed;
      const vanished = positions.vanishedFrom(previous);
      if (vanished.length > 0) result.vanished[spec.table] = vanished;
    }
    // A full dump counted its blob rows as it wrote them; a delta wrote only the new ones.
    if (since) {
      const blobs = await sql<{ count: string; bytes: string | null }>`
        select count(*)::text as count, sum(t.size)::text as bytes from blobs t
        where ${scopeCondition({ table: 'blobs', scope: 'blob' }, selection)}`.execute(tx);
      result.blobCount = Number(blobs.rows[0]?.count ?? 0);
      result.blobBytes = Number(blobs.rows[0]?.bytes ?? 0);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    result.files['metadata.jsonl'] = hash.digest('hex');
    return result;
  } finally {
    out.destroy();
  }
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
async function writtenSince(tx: Database, delta: DeltaSince): Promise<RawBuilder<boolean>> {
  const base = (delta.sinceXmin & 0xffffffffn).toString();
  const { rows } = await sql<{ age: number }>`select age(${sql.lit(base)}::xid) as age`.execute(tx);
  return sql<boolean>`age(t.xmin) <= ${sql.lit(integer(Number(rows[0].age)))}`;
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

/** A full dump of one table: every row it covers, through one cursor, a page per fetch. */
async function dumpTable({ tx, spec, selection, positions, write, blobs }: TableDump) {
  const lineOf = lineMaker(spec.table);
  // One cursor per table: the table is read once, a page per fetch. Paging by `ctid > last`
  // made each page scan (and sort) the rest of the table and evaluate the scope again, so
  // a million rows took quadratic time.
  const cursor = sql.id(`backup_${spec.table}`);
  // Blobs in SHA-256 order (bytewise, as JavaScript compares): a backup's packs and the
  // merge against earlier packs' sorted indexes read this list in that order.
  const order = spec.table === 'blobs' ? sql`order by t.sha256 collate "C"` : sql``;
  await sql`declare ${cursor} no scroll cursor for
    select t.ctid::text as at, to_jsonb(t)::text as row, ${blobSize(spec)} as size
      from ${sql.table(spec.table)} t
    where ${scopeCondition(spec, selection)} ${order}`.execute(tx);
  let count = 0;
  try {
    for (;;) {
      const { rows } = await sql<{
        at: string;
        row: string;
        size: string | null;
      }>`fetch ${sql.raw(String(PAGE))} from ${cursor}`.execute(tx);
      let page = '';
      for (const { at, row: text, size } of rows) {
        const position = rowPositionOf(at);
        positions.add(position);
        page += lineOf(position, text);
        if (size !== null) countBlob(blobs, size);
      }
      // One write a page: a write (and its await) a row cost more than reading the row.
      if (page) await write(page);
      count += rows.length;
      if (rows.length < PAGE) break;
    }
  } finally {
    await sql`close ${cursor}`.execute(tx);
  }
  return { count, changed: count };
}

/** A blob row's size as text (exact at any size), selected beside the `blobs` table's rows. */
const blobSize = (spec: BackedUpTable) => (spec.table === 'blobs' ? sql`t.size::text` : sql`null`);

function countBlob(blobs: { count: number; bytes: number }, size: string) {
  blobs.count += 1;
  blobs.bytes += Number(size);
}

/** A delta's base: the condition naming rows written since it, and its table's positions. */
interface TableBase {
  written: RawBuilder<boolean>;
  previous: Float64Array;
}

/**
 * A delta of one table. First every row's position and whether it was written since the
 * base, without its contents: on the embedded database one `COPY … TO '/dev/blob'` (the
 * positions as text, a few bytes a row, in one message), elsewhere a cursor. Then only the
 * rows the delta writes, fetched by position: those written since the base, and those the
 * base did not hold though not written since (they came into the backup's scope since, such
 * as a blob an included item uses again). Turning a row into JSON costs the database some
 * fifty times reading its position, so a delta after a 1 % change costs about a scan.
 */
async function dumpTableDelta(
  { tx, spec, selection, positions, write, blobs }: TableDump,
  base: TableBase,
  copyToBlob: boolean,
) {
  const wanted: number[] = [];
  let count = 0;
  const visit = (position: number, written: boolean) => {
    positions.add(position);
    count += 1;
    if (written || !contains(base.previous, position)) wanted.push(position);
  };
  const scan = copyToBlob ? scanByCopy : scanByCursor;
  await scan(tx, spec, selection, base.written, visit);
  const lineOf = lineMaker(spec.table);
  // A delta's blob rows are few; they are written at the end, in SHA-256 order.
  const blobLines: { sha256: string; line: string }[] = [];
  for (let start = 0; start < wanted.length; start += PAGE) {
    const tids = `{${wanted
      .slice(start, start + PAGE)
      .map((position) => `"${tidOf(position)}"`)
      .join(',')}}`;
    const { rows } = await sql<{
      at: string;
      row: string;
      sha256: string | null;
      size: string | null;
    }>`
      select t.ctid::text as at, to_jsonb(t)::text as row,
             ${spec.table === 'blobs' ? sql`t.sha256` : sql`null`} as sha256, ${blobSize(spec)} as size
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
        .sort((a, b) => (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0))
        .map(({ line }) => line)
        .join(''),
    );
  return { count, changed: wanted.length };
}

type PositionVisitor = (position: number, written: boolean) => void;

/** Every covered row's position and written-since flag, by one `COPY … TO '/dev/blob'`. */
async function scanByCopy(
  tx: Database,
  spec: BackedUpTable,
  selection: DumpSelection,
  written: RawBuilder<boolean>,
  visit: PositionVisitor,
) {
  const { rows } = await sql<{ copy: Uint8Array }>`copy (
    select t.ctid, ${written} from ${sql.table(spec.table)} t
     where ${scopeCondition(spec, selection)}) to '/dev/blob'`.execute(tx);
  eachCopiedPosition(rows[0]?.copy ?? new Uint8Array(), visit);
}

/** The same through a cursor, a large page per fetch (PostgreSQL). */
async function scanByCursor(
  tx: Database,
  spec: BackedUpTable,
  selection: DumpSelection,
  written: RawBuilder<boolean>,
  visit: PositionVisitor,
) {
  const cursor = sql.id(`backup_positions_${spec.table}`);
  await sql`declare ${cursor} no scroll cursor for
    select t.ctid::text as at, ${written} as written from ${sql.table(spec.table)} t
     where ${scopeCondition(spec, selection)}`.execute(tx);
  try {
    for (;;) {
      const { rows } = await sql<{
        at: string;
        written: boolean;
      }>`fetch ${sql.raw(String(POSITIONS_PAGE))} from ${cursor}`.execute(tx);
      for (const { at, written: flag } of rows) visit(rowPositionOf(at), flag);
      if (rows.length < POSITIONS_PAGE) return;
    }
  } finally {
    await sql`close ${cursor}`.execute(tx);
  }
}

/** Positions read per fetch by a delta's cursor: a few bytes a row. */
const POSITIONS_PAGE = 10_000;

const [OPEN, COMMA, CLOSE, TAB, NEWLINE, TRUE, ZERO] = ['(', ',', ')', '\t', '\n', 't', '0'].map(
  (char) => char.charCodeAt(0),
);

/**
 * Reads COPY's text output of `(ctid, boolean)` rows, `(12,3)\tt\n` each, straight from its
 * bytes (no string per row).
 */
export function eachCopiedPosition(bytes: Uint8Array, visit: PositionVisitor) {
  let i = 0;
  const number = (end: number) => {
    let value = 0;
    while (bytes[i] !== end) {
      const digit = bytes[i++] - ZERO; // NaN past the end
      if (!(digit >= 0 && digit <= 9)) throw new Error('a row position of the COPY is damaged');
      value = value * 10 + digit;
    }
    i += 1;
    return value;
  };
  while (i < bytes.length) {
    if (bytes[i++] !== OPEN) throw new Error('a row position of the COPY is damaged');
    const block = number(COMMA);
    const offset = number(CLOSE);
    if (bytes[i++] !== TAB) throw new Error('a row position of the COPY is damaged');
    const flag = bytes[i++] === TRUE;
    if (bytes[i++] !== NEWLINE) throw new Error('a row position of the COPY is damaged');
    visit(block * 65536 + offset, flag);
  }
}

/** A row position as a `tid` literal: block × 65536 + offset → `(block,offset)`. */
const tidOf = (position: number) => `(${Math.floor(position / 65536)},${position % 65536})`;
