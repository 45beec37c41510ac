import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Criterion } from '../search/criteria.ts';
import { candidateCondition, criterionReadsBlobs, KEPT_BY_BUILDS } from './queries.ts';

/** The preview's figures, summed by the database rather than held here. */
export interface ChosenTotals {
  count: number;
  totalSize: number;
  freedBytes: number;
}

/**
 * Runs `work` with a session-local table of the ids of the remote repositories' files a
 * preview chose (chosen here, by a rule on their path: selection.ts), on one connection of
 * its own. The table is dropped after.
 */
export async function withRemoteChoiceTable<T>(
  db: Database,
  work: (session: Database, table: string) => Promise<T>,
): Promise<T> {
  const table = `retention_remote_${randomBytes(6).toString('hex')}`;
  return db.connection().execute(async (session) => {
    await sql`create temporary table ${sql.table(table)} (id bigint primary key)`.execute(session);
    try {
      return await work(session, table);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(session);
    }
  });
}

/** Adds a batch of chosen remote files to the table. */
export async function addRemoteChosen(session: Database, table: string, ids: number[]) {
  if (ids.length === 0) return;
  await sql`insert into ${sql.table(table)} (id) select unnest(${ids}::bigint[])`.execute(session);
}

/**
 * Which of the two lists of what kept builds need (KEPT_BY_BUILDS) can hold anything: in many
 * a Depot no build was ever stored, and a list that is empty is left out of the statement.
 * Testing a million files against two empty lists took a fifth of a preview's time.
 */
export interface KeptListsInUse {
  files: boolean;
  contents: boolean;
  /** The contents list is short enough to be hashed once (`KEPT_CONTENTS_HASHED`). */
  contentsHashed: boolean;
}
const BOTH_LISTS: KeptListsInUse = { files: true, contents: true, contentsHashed: false };

/**
 * Up to how many build files the preview tests each file's content against the kept contents
 * with `not in`: the database then hashes the list once (some 10 MB for 100,000 build files)
 * and probes it per file. Over `not exists` the planner, knowing nothing of the list's
 * distinct values, hashed the million files instead (59 MB, written to temporary files and
 * read back): 1.95 s against 1.70 s at a million files and 1,000 builds of 100 files. A
 * hashed `not in` must fit the statement's hash memory (work_mem × hash_mem_multiplier, both
 * set for the statement), else the planner runs the list once per file; the planner's
 * estimate of the list is at most twice the build files (a row's SHA-256 and the content its
 * SHA-1 names), some 56 bytes each: 400,000 build files stay well inside 64 MB. Above, the
 * `not exists` form.
 */
const KEPT_CONTENTS_HASHED = 400_000;

/** Whether any build is stored, and how many files they list: read in the statement's snapshot. */
async function keptListsInUse(tx: Database): Promise<KeptListsInUse> {
  const { rows } = await sql<{ files: boolean; build_files: string | number }>`
    select exists (select 1 from builds) as files,
           (select count(*) from (select 1 from build_files limit ${KEPT_CONTENTS_HASHED + 1}) f)
             as build_files`.execute(tx);
  const buildFiles = Number(rows[0]!.build_files);
  return {
    files: rows[0]!.files,
    contents: buildFiles > 0,
    contentsHashed: buildFiles <= KEPT_CONTENTS_HASHED,
  };
}

/**
 * The files a policy chooses, as `(sha256, size)` rows: outside remote repositories every
 * candidate, in one scan; inside them, the ones selection.ts put in `remoteTable` (none
 * when there is no table: no remote file exists). What kept builds need is read from the
 * statement's `kept_files` and `kept_contents`, those of them in use.
 */
function chosenFiles(
  where: Criterion,
  remoteTable: string | undefined,
  lists: KeptListsInUse,
): RawBuilder<unknown> {
  const blobs = criterionReadsBlobs(where) ? sql`join blobs b on b.sha256 = n.sha256` : sql``;
  const kept = {
    files: lists.files ? sql`kept_files` : undefined,
    contents: lists.contents ? sql`kept_contents` : undefined,
    contentsHashed: lists.contentsHashed,
  };
  const local = sql`select n.sha256, n.size
    from nodes n join repositories r on r.id = n.repository_id ${blobs}
    where r.rclass <> 'remote' and ${candidateCondition(where, kept)}`;
  if (!remoteTable) return local;
  return sql`${local}
    union all
    select n.sha256, n.size from ${sql.table(remoteTable)} rc join nodes n on n.id = rc.id`;
}

/**
 * The preview's work_mem, for its statement only. The planner guesses the shared contents at
 * a third of all contents (it cannot know how many have two holders); with the embedded
 * database's 4 MB that guess exceeds a hash table's memory from some 100,000 files on, and
 * the join then writes every chosen file to temporary files and reads it back (68 MB and
 * half the time at 1,000,000). Only what is really hashed takes memory: the shared contents.
 */
const PREVIEW_WORK_MEM = '32MB';
/** PostgreSQL's default, set in case a server's configuration lowered it (KEPT_CONTENTS_HASHED). */
const PREVIEW_HASH_MEM_MULTIPLIER = 2;

/**
 * The chosen files' count and sizes, and the bytes that would leave the disk: the size of
 * each content no file outside the choice holds (every file holding it, in any repository or
 * the trash, is chosen). One statement, one pass over the files, nothing held here.
 */
export async function chosenTotals(
  session: Database,
  where: Criterion,
  remoteTable: string | undefined,
): Promise<ChosenTotals> {
  // One snapshot for the look at the build tables and the statement (on PostgreSQL; the
  // embedded database runs a transaction alone).
  const { rows } = await session
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      await sql`set local work_mem = ${sql.lit(PREVIEW_WORK_MEM)}`.execute(tx);
      await sql`set local hash_mem_multiplier = ${sql.lit(PREVIEW_HASH_MEM_MULTIPLIER)}`.execute(
        tx,
      );
      return totalsStatement(where, remoteTable, await keptListsInUse(tx)).execute(tx);
    });
  const row = rows[0]!;
  return {
    count: Number(row.count),
    totalSize: Number(row.total_size),
    freedBytes: Number(row.freed),
  };
}

/**
 * chosenTotals' statement:
 *
 * - `kept_files` and `kept_contents`, what kept builds need, are read once (materialized),
 *   so that the planner hashes them: tested row by row against build tables that are empty,
 *   as they are in many a Depot, the embedded database spent most of a preview rescanning
 *   them (7 of 8 s over 100,000 files). A list known to be empty (`lists`) is left out:
 *   even hashed, testing each file against it cost a fifth of the time at 1,000,000 files;
 * - `shared`, the contents more than one file holds, with their holders counted, read in
 *   content order from the index on `nodes(sha256)` (an index-only scan while the
 *   visibility map is current; on the embedded database, its upkeep job keeps it so (maintenance/embedded-upkeep.ts)).
 *   Most content has one holder, so the list is short;
 * - the chosen files are then grouped by their content when it is shared and all together
 *   when it is not: a file whose content is not shared frees its size (it is the only
 *   holder), a shared content frees its size once when all its holders are chosen. The
 *   groups are one plus the shared contents chosen, never one per file.
 *
 * The earlier form wrote every chosen file into a temporary table and joined it to `nodes`
 * by content: 3.9 s per 100,000 files on a quiet machine (docs/backup.md).
 */
export function totalsStatement(
  where: Criterion,
  remoteTable: string | undefined,
  lists: KeptListsInUse = BOTH_LISTS,
) {
  const keptFiles = lists.files
    ? sql`kept_files as materialized (${KEPT_BY_BUILDS.files}),`
    : sql``;
  const keptContents = lists.contents
    ? sql`kept_contents as materialized (${KEPT_BY_BUILDS.contents}),`
    : sql``;
  return sql<{ count: string; total_size: string; freed: string }>`
    with ${keptFiles} ${keptContents}
    shared as materialized (
      select sha256, count(*) as holders from nodes where sha256 is not null
      group by sha256 having count(*) > 1
    ),
    by_content as (
      select s.sha256 as shared_content, max(s.holders) as holders, count(*) as files,
             sum(c.size) as size, max(c.size) as content_size
      from (${chosenFiles(where, remoteTable, lists)}) c left join shared s on s.sha256 = c.sha256
      group by s.sha256
    )
    select coalesce(sum(files), 0) as count, coalesce(sum(size), 0) as total_size,
           coalesce(sum(case when shared_content is null then size
                             when files >= holders then content_size
                             else 0 end), 0) as freed
    from by_content
  `;
}
