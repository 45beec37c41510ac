import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { BuildFile } from './queries.ts';

type Change = 'new' | 'updated' | 'unchanged' | 'removed';

/** A module's artifact or dependency as the diff answers it. */
export interface DiffEntry {
  name: string;
  type: string | null;
  sha1: string | null;
  sha256: string | null;
  md5: string | null;
  module: string;
}

/** One category's changes, in Artifactory's diff shape. */
export interface Changes<T> {
  new: T[];
  updated: T[];
  unchanged: T[];
  removed: T[];
}

/** Sorts rows, already in the order they are answered, into their categories. */
function grouped<T>(rows: { change: Change }[], entry: (row: never) => T): Changes<T> {
  const changes: Changes<T> = { new: [], updated: [], unchanged: [], removed: [] };
  for (const row of rows) changes[row.change].push(entry(row as never));
  return changes;
}

/**
 * The side a row of the full join answers with: the current build's entry, or the previous
 * build's for one it no longer has.
 */
const side = (column: string) =>
  sql.raw(`case when here.module_id is null then there.${column} else here.${column} end`);

/**
 * One build's files of one kind, one row per module and name: where a module lists a name
 * twice, the last listing's checksums at the first listing's place (as a map keyed by module
 * and name reads them). The place is where the document lists the entry (`module_at`, `at`),
 * written at upload: where rows sit in the table is not the document's order once deletes
 * have left free space for a new build's rows.
 */
const filesOf = (buildId: number, kind: BuildFile['kind']) => sql`
  select distinct on (module_id, name) module_id, name, type, sha1, sha256, md5,
         first_value(module_position) over listing as module_at,
         first_value(position) over listing as at
  from build_files where build_id = ${buildId} and kind = ${kind}
  window listing as (partition by module_id, name order by module_position, position)
  order by module_id, name, module_position desc, position desc`;

/** A checksum both sides give that differs; one side's missing checksum decides nothing. */
const sameChecksum = (column: string): RawBuilder<unknown> =>
  sql.raw(
    `(here.${column} is null or there.${column} is null or here.${column} = there.${column})`,
  );

/**
 * Artifacts or dependencies compared in one query: the two builds' rows fully joined on
 * module and name (a dependency's name is its id), changed when a checksum both give differs.
 */
async function fileChanges(
  db: Database,
  currentId: number,
  previousId: number,
  kind: BuildFile['kind'],
) {
  const { rows } = await sql<DiffEntry & { change: Change }>`
    with here as (${filesOf(currentId, kind)}), there as (${filesOf(previousId, kind)})
    select case when there.module_id is null then 'new'
                when here.module_id is null then 'removed'
                when ${sameChecksum('sha256')} and ${sameChecksum('sha1')} and ${sameChecksum('md5')}
                  then 'unchanged'
                else 'updated' end as change,
           ${side('name')} as name, ${side('type')} as type, ${side('sha1')} as sha1,
           ${side('sha256')} as sha256, ${side('md5')} as md5, ${side('module_id')} as module
    from here full join there on here.module_id = there.module_id and here.name = there.name
    order by coalesce(here.module_at, there.module_at), coalesce(here.at, there.at)`.execute(db);
  return grouped(rows, (row: DiffEntry) => ({
    name: row.name,
    type: row.type,
    sha1: row.sha1,
    sha256: row.sha256,
    md5: row.md5,
    module: row.module,
  }));
}

/** Properties compared by key out of their flattened rows (`build_properties`, 0054). */
async function propertyChanges(db: Database, currentId: number, previousId: number) {
  const { rows } = await sql<{ change: Change; name: string; value: string }>`
    with here as (select key, value, position from build_properties where build_id = ${currentId}),
         there as (select key, value, position from build_properties where build_id = ${previousId})
    select case when there.key is null then 'new'
                when here.key is null then 'removed'
                when here.value = there.value then 'unchanged'
                else 'updated' end as change,
           coalesce(here.key, there.key) as name,
           case when here.key is null then there.value else here.value end as value
    from here full join there on here.key = there.key
    order by here.position nulls last, there.position`.execute(db);
  return grouped(rows, (row: { name: string; value: string }) => ({
    name: row.name,
    value: row.value,
  }));
}

/**
 * What changed from the previous build to the current one (GET /api/build/{name}/{number}?diff=):
 * artifacts and dependencies matched by module and name, changed when their checksums differ;
 * properties by key, changed when their values differ. Each kind is one query over rows, so
 * neither build's document is read.
 */
export async function diffBuilds(db: Database, currentId: number, previousId: number) {
  const [artifacts, dependencies, properties] = await Promise.all([
    fileChanges(db, currentId, previousId, 'artifact'),
    fileChanges(db, currentId, previousId, 'dependency'),
    propertyChanges(db, currentId, previousId),
  ]);
  return { artifacts, dependencies, properties };
}
