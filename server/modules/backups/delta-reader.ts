import { sql, type RawBuilder } from 'kysely';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';
import { BACKED_UP_TABLES, type BackedUpTable, type TableScope } from './backup-tables.ts';
import {
  blobsBeside,
  blobsOfNewItems,
  countAndWritten,
  scanEveryPosition,
  type DeltaPositions,
  type TableInDelta,
} from './delta-positions.ts';
import type { DumpSelection, DumpTarget } from './metadata-dump.ts';
import { readPositions } from './row-positions.ts';
import { repositoryList, scopeCondition } from './scope-conditions.ts';

/** Whether a row (of the table aliased `alias`, `t` by default) was written since the base. */
export type WrittenSince = (alias?: string) => RawBuilder<boolean>;

/** Tables whose covered rows their own columns decide (no join): see countAndWritten. */
const JOIN_FREE: ReadonlySet<TableScope> = new Set(['all', 'repository', 'repository-row']);

/**
 * How a delta learns each table's row positions. `nodes` is read before `blobs` (its rows are
 * still written after them): when every item the base held is still there as it was, the
 * blob rows are found from the blob rows written since and the new items' own blobs
 * (blobsOfNewItems), or else read without the join against every item (blobsBeside). A
 * join-free table is
 * read by a count and the positions written since the base when that proves the rest
 * (countAndWritten); any other case, or any doubt, scans every position as before.
 */
export class DeltaReader {
  private readonly previous = new Map<string, Float64Array>();
  private nodes: DeltaPositions | undefined;
  private scopeKept: boolean | undefined;

  constructor(
    private readonly tx: Database,
    private readonly selection: DumpSelection,
    private readonly written: WrittenSince,
    private readonly target: DumpTarget,
  ) {}

  async previousOf(spec: BackedUpTable): Promise<Float64Array> {
    let positions = this.previous.get(spec.table);
    if (!positions) {
      positions = await readPositions(join(this.target.delta!.previousIdsDir, spec.table));
      this.previous.set(spec.table, positions);
    }
    return positions;
  }

  /** Lets go of a table's base positions once its delta is written. */
  forget(spec: BackedUpTable) {
    this.previous.delete(spec.table);
    if (spec.table === 'nodes') this.nodes = undefined;
  }

  async positionsOf(spec: BackedUpTable): Promise<DeltaPositions> {
    if (spec.table === 'nodes') return this.nodes ?? this.joinFreeOrScan(spec);
    if (spec.table !== 'blobs') return this.joinFreeOrScan(spec);
    this.nodes = await this.joinFreeOrScan(NODES);
    const blobs = await this.tableOf(spec);
    if (!this.nodes.baseKeptWhole) return scanEveryPosition(blobs);
    const covered = sql<boolean>`n.repository_id in (${repositoryList(this.selection)})`;
    const fromNewItems = await blobsOfNewItems(
      blobs,
      {
        covered,
        itemWritten: this.written('n'),
        newItems: this.nodes.wanted,
        newContents: this.nodes.details,
        base: this.target.delta!.previousBlobs,
      },
      blobWrittenSince(this.target.delta!.sinceXmin),
    );
    return (
      fromNewItems ??
      blobsBeside(blobs, sql`select 1 from nodes n where n.sha256 = t.sha256 and ${covered}`)
    );
  }

  private async joinFreeOrScan(spec: BackedUpTable): Promise<DeltaPositions> {
    const table = await this.tableOf(spec);
    const kept = spec.scope === 'all' || (await this.coveredRepositoriesKept());
    return (await countAndWritten(table, kept)) ?? scanEveryPosition(table);
  }

  private async tableOf(spec: BackedUpTable): Promise<TableInDelta> {
    return {
      tx: this.tx,
      table: spec.table,
      scope: scopeCondition(spec, this.selection),
      written: this.written(),
      previous: await this.previousOf(spec),
      copyToBlob: this.target.copyToBlob ?? false,
      joinFree: JOIN_FREE.has(spec.scope),
      sizes: spec.table === 'blobs',
      // The new items' contents, read with their positions: blobsOfNewItems needs them.
      detail: spec.table === 'nodes' ? sql`t.sha256` : undefined,
    };
  }

  /**
   * Whether no covered repository's row was written since the base: then each covered id is
   * one the base covered too (the same key, and a backup continues only a base that covered
   * the same keys), and a row that came into the backup since must have been written since.
   */
  private async coveredRepositoriesKept(): Promise<boolean> {
    if (this.scopeKept === undefined) {
      const { rows } = await sql<{ count: string }>`
        select count(*)::text as count from repositories t
         where t.id in (${repositoryList(this.selection)}) and ${this.written()}`.execute(this.tx);
      this.scopeKept = rows[0].count === '0';
    }
    return this.scopeKept;
  }
}

/**
 * Whether blob row `t` was written since the base, by the transaction that last wrote it
 * (`written_xid`, migration 0061): one not committed when the base's snapshot was taken has an
 * id at least the snapshot's xmin. Null (rows written before the migration) is older than any
 * base a delta continues (a base is continued only by a backup of the same migrations), and
 * reads as not written. The bare comparison is what lets the index find the rows.
 */
const blobWrittenSince = (sinceXmin: bigint) =>
  sql<boolean>`t.written_xid >= ${sql.lit(sinceXmin.toString())}::xid8`;

const NODES = BACKED_UP_TABLES.find((spec) => spec.table === 'nodes')!;
