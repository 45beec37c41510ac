import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import { rowPositionOf } from './row-positions.ts';

/** A row's position and written flag, and its `size` column when the scan reads it (or 0). */
export type PositionVisitor = (position: number, written: boolean, size: number) => void;

/** One read of row positions: a table's rows matching `where`, each with its `written` flag. */
export interface PositionScan {
  tx: Database;
  table: string;
  where: RawBuilder<unknown>;
  written: RawBuilder<boolean>;
  /**
   * Reads the row's `size` column too (the `blobs` table): a delta adds up the bytes its
   * backup covers from the scan it makes anyway, instead of a sum over a join afterwards.
   */
  sizes?: boolean;
  /**
   * The embedded database: read with `COPY … TO '/dev/blob'` (the rows as COPY's text in one
   * message, which its worker hands over without parsing each row). Never on PostgreSQL,
   * where it would write a file of the server.
   */
  copyToBlob: boolean;
}

/** Blocks of a table read per statement by a ranged scan: about 8 MiB of the table. */
export const BLOCKS_PER_READ = 1024;

/**
 * Blocks per statement of a pass that answers little: a count and the rows written since
 * (countAndVisitWritten: the delta's pass over `nodes`). Each statement is a round trip to the
 * database's thread; a delta after 1 % at a million items made some 45 of them at 1,024 blocks.
 * At 4,096 the delta took 1.31-1.41 s against 1.36-1.57 s (medians 1.33 and 1.46 s; docs/backup.md,
 * "Eleventh round"). A range is 32 MiB of the table; when all its rows were written, their
 * positions and contents come back as some 15 MB of text.
 */
const PASS_BLOCKS = 4096;

/**
 * Every matching row's position, a range of `blocksPerRead` blocks per statement (a TID range
 * scan, `ctid >= '(b,0)' and ctid < '(b+n,0)'`), in table order. Only for a condition on the
 * row's own columns: a join would be run again for each range. One COPY of every row held the
 * whole table's text up to three times in the embedded database's worker (about 55 MB at a
 * million rows); a range holds a few hundred kB.
 */
export async function scanRanges(
  scan: PositionScan,
  visit: PositionVisitor,
  blocksPerRead = BLOCKS_PER_READ,
): Promise<void> {
  await eachRange(scan, blocksPerRead, (range) =>
    scanOnce({ ...scan, where: sql`(${scan.where}) and ${range}` }, visit),
  );
}

/** A count's scan, and a column of the written rows to read with their positions. */
export type CountScan = Omit<PositionScan, 'sizes'> & {
  /**
   * A text column without spaces or colons (a SHA-256), read for each written row: `nodes`'
   * content, so that a delta knows the new items' contents without reading them again.
   */
  detail?: RawBuilder<unknown>;
};

/**
 * Counts the rows matching `where` and visits the positions of those of them written since
 * the base (with their `detail`, '' when null), a range of PASS_BLOCKS blocks per statement:
 * one pass over the table for both (a count and a scan of the written rows apart read a
 * large table twice). Only the written rows come back, as text: a few after a small change.
 */
export async function countAndVisitWritten(
  scan: CountScan,
  visitWritten: (position: number, detail: string) => void,
  blocksPerRead = PASS_BLOCKS,
): Promise<number> {
  let count = 0;
  // `(12,3):<detail>` for each written row, space-separated.
  const entry = sql`t.ctid::text || ':' || coalesce(${scan.detail ?? sql`null`}::text, '')`;
  await eachRange(scan, blocksPerRead, async (range) => {
    const { rows } = await sql<{ count: string; written: string | null }>`
      select count(*)::text as count,
             string_agg(${entry}, ' ') filter (where ${scan.written}) as written
        from ${sql.table(scan.table)} t where (${scan.where}) and ${range}`.execute(scan.tx);
    count += Number(rows[0].count);
    for (const written of rows[0].written?.split(' ') ?? []) {
      const colon = written.indexOf(':');
      visitWritten(rowPositionOf(written.slice(0, colon)), written.slice(colon + 1));
    }
  });
  return count;
}

/** Runs `read` for each range of `blocksPerRead` blocks of the table, in table order. */
export async function eachRange(
  scan: Pick<PositionScan, 'tx' | 'table'>,
  blocksPerRead: number,
  read: (range: RawBuilder<unknown>) => Promise<void>,
) {
  const { rows } = await sql<{ blocks: string }>`
    select (pg_relation_size(${sql.lit(scan.table)}::regclass)
            / current_setting('block_size')::bigint)::text as blocks`.execute(scan.tx);
  // Blocks added after this (rows other transactions insert) hold no row this snapshot sees.
  const blocks = Number(rows[0].blocks);
  for (let first = 0; first < blocks; first += blocksPerRead)
    await read(sql`t.ctid >= ${sql.lit(`(${first},0)`)}::tid
      and t.ctid < ${sql.lit(`(${first + blocksPerRead},0)`)}::tid`);
}

/** Every matching row's position in one statement (a condition with a join). */
export async function scanOnce(scan: PositionScan, visit: PositionVisitor): Promise<void> {
  const { tx, table, where, written } = scan;
  if (scan.copyToBlob) {
    const { rows } = await sql<{ copy: Uint8Array }>`copy (
      select t.ctid, ${written}${sizeColumn(scan)} from ${sql.table(table)} t
       where ${where}) to '/dev/blob'`.execute(tx);
    eachCopiedPosition(rows[0]?.copy ?? new Uint8Array(), visit);
  } else await scanByCursor(scan, visit);
}

const sizeColumn = (scan: PositionScan) => (scan.sizes ? sql`, t.size` : sql``);

/** Positions read per fetch by a cursor: a few bytes a row. */
const POSITIONS_PAGE = 10_000;

/** The same through a cursor, a large page per fetch (PostgreSQL). */
async function scanByCursor(scan: PositionScan, visit: PositionVisitor) {
  const { tx, table, where, written } = scan;
  const cursor = sql.id(`backup_positions_${table}`);
  const size = scan.sizes ? sql`t.size::text` : sql`null`;
  await sql`declare ${cursor} no scroll cursor for
    select t.ctid::text as at, ${written} as written, ${size} as size
      from ${sql.table(table)} t where ${where}`.execute(tx);
  try {
    for (;;) {
      const { rows } = await sql<{
        at: string;
        written: boolean;
        size: string | null;
      }>`fetch ${sql.raw(String(POSITIONS_PAGE))} from ${cursor}`.execute(tx);
      for (const row of rows) visit(rowPositionOf(row.at), row.written, Number(row.size ?? 0));
      if (rows.length < POSITIONS_PAGE) return;
    }
  } finally {
    await sql`close ${cursor}`.execute(tx);
  }
}

const [OPEN, COMMA, CLOSE, TAB, NEWLINE, TRUE, ZERO] = ['(', ',', ')', '\t', '\n', 't', '0'].map(
  (char) => char.charCodeAt(0),
);

/**
 * Reads COPY's text output of `(ctid, boolean)` rows, `(12,3)\tt\n` each, or `(ctid, boolean,
 * size)` rows, `(12,3)\tt\t10240\n`, straight from its bytes (no string per row).
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
    const separator = bytes[i++];
    const size = separator === TAB ? number(NEWLINE) : 0;
    if (separator !== TAB && separator !== NEWLINE)
      throw new Error('a row position of the COPY is damaged');
    visit(block * 65536 + offset, flag, size);
  }
}
