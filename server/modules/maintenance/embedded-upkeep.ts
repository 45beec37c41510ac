import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { JobResult } from '../../jobs/scheduler.ts';

/**
 * The tables whole-repository queries read (the retention preview, searches, the tree):
 * those worth keeping planned and scanned well.
 */
export const UPKEPT_TABLES = [
  'nodes',
  'blobs',
  'node_properties',
  'builds',
  'build_files',
  'download_stats',
] as const;

/** Pages written since the last VACUUM that make a table worth another one. */
const MIN_NEW_PAGES = 128;
/** ... and the share of the table they must be at least. */
const MIN_NEW_SHARE = 0.1;

/**
 * The embedded database's stand-in for PostgreSQL's autovacuum, which PGlite does not run:
 * `VACUUM (ANALYZE)` of each busy table once a tenth of its pages (and at least 128) were
 * written since its last one. The VACUUM marks pages all-visible, so that a count over an
 * index reads the index alone (the retention preview's shared contents over
 * `nodes(sha256)`); the ANALYZE gives the planner the tables' real sizes. A VACUUM reads
 * only the pages not yet marked, so each run costs about what was written since the last;
 * the first one over a large Depot reads it whole (about 0.6 s per 100,000 files on 2 busy
 * cores), and the embedded database answers nothing else meanwhile.
 */
export async function upkeepEmbeddedDatabase(db: Database): Promise<JobResult> {
  const vacuumed: string[] = [];
  for (const table of UPKEPT_TABLES) {
    if (!(await needsVacuum(db, table))) continue;
    await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
    vacuumed.push(table);
  }
  return {
    info:
      vacuumed.length === 0
        ? 'The embedded database needed no upkeep'
        : `Vacuumed and analyzed ${vacuumed.join(', ')}`,
    vacuumed,
  };
}

/** Whether enough of the table's pages are not marked all-visible (pg_class, as of the last VACUUM). */
async function needsVacuum(db: Database, table: string): Promise<boolean> {
  const { rows } = await sql<{ pages: number | string; visible: number | string }>`
    select pg_relation_size(c.oid) / current_setting('block_size')::int as pages,
           c.relallvisible as visible
    from pg_class c where c.oid = to_regclass(${table})`.execute(db);
  if (rows.length === 0) return false;
  const unmarked = Number(rows[0]!.pages) - Number(rows[0]!.visible);
  return unmarked >= Math.max(MIN_NEW_PAGES, Number(rows[0]!.pages) * MIN_NEW_SHARE);
}
