import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import type { ItemQuery } from './criteria.ts';
import { orderSql, whereSql } from './item-sql.ts';

/** One item a search found, as the database answers it. */
export interface ItemRow {
  id: number;
  repo: string;
  /** The item's full path in its repository. */
  path: string;
  parent_path: string;
  name: string;
  folder: boolean;
  size: number;
  mime_type: string | null;
  created_at: Date;
  created_by: string;
  modified_at: Date;
  modified_by: string;
  sha256: string | null;
  sha1: string | null;
  md5: string | null;
}

export interface ItemBatch {
  query: ItemQuery;
  /** Lower-cased keys of the repositories to look in; undefined for all of them. */
  repoKeys?: readonly string[];
  offset: number;
  limit: number;
}

/** `r` (the repository) is one of `repoKeys` (lower-cased), or any when undefined. */
function inRepositories(repoKeys: readonly string[] | undefined) {
  if (repoKeys === undefined) return sql`true`;
  return sql`lower(r.key) in (${sql.join(repoKeys.length > 0 ? repoKeys : [''])})`;
}

/** One batch of a search's rows, in the query's order, from `offset` on. */
export async function itemBatch(db: Database, batch: ItemBatch): Promise<ItemRow[]> {
  const { query, repoKeys, offset, limit } = batch;
  const inScope =
    query.scope === 'trash' ? sql`r.key = ${TRASH_REPO_KEY}` : sql`r.key <> ${TRASH_REPO_KEY}`;
  const { rows } = await sql<ItemRow>`
    select n.id, r.key as repo, n.path, n.parent_path, n.name, n.folder, n.size, n.mime_type,
           n.created_at, n.created_by, n.modified_at, n.modified_by, n.sha256, b.sha1, b.md5
    from nodes n
    join repositories r on r.id = n.repository_id
    left join blobs b on b.sha256 = n.sha256
    where ${inScope} and ${inRepositories(repoKeys)} and ${whereSql(query.where)}
    order by ${orderSql(query.sort)}
    limit ${limit} offset ${offset}`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id), size: Number(row.size) }));
}

/** Properties of the given items, for answers that include them. */
export async function propertiesOf(
  db: Database,
  nodeIds: readonly number[],
): Promise<Map<number, { key: string; value: string }[]>> {
  const byNode = new Map<number, { key: string; value: string }[]>();
  if (nodeIds.length === 0) return byNode;
  const rows = await db
    .selectFrom('node_properties')
    .select(['node_id', 'key', 'value'])
    .where('node_id', 'in', nodeIds)
    .orderBy('key')
    .orderBy('value')
    .execute();
  for (const row of rows) {
    const id = Number(row.node_id);
    byNode.set(id, [...(byNode.get(id) ?? []), { key: row.key, value: row.value }]);
  }
  return byNode;
}

/** A file inside a Java archive that a class search found, with the archive it is in. */
export interface ArchiveEntryRow {
  repo: string;
  /** The archive's path in its repository. */
  path: string;
  folder: false;
  archive_name: string;
  entry_path: string;
  entry_name: string;
  modified_at: Date;
}

export interface ArchiveEntrySearch {
  /** A LIKE pattern over the entry's name, lower-cased; `.class` may follow it. */
  namePattern: string;
  /** A LIKE pattern over the entry's folder inside the archive, or undefined for any. */
  pathPattern?: string;
  classesOnly: boolean;
  excludeInnerClasses: boolean;
}

/** One batch of archive entries matching a class search, by entry name then archive. */
export async function archiveEntryBatch(
  db: Database,
  search: ArchiveEntrySearch,
  repoKeys: readonly string[] | undefined,
  offset: number,
  limit: number,
): Promise<ArchiveEntryRow[]> {
  const name = sql`lower(e.entry_name) collate "C"`;
  const { rows } = await sql<ArchiveEntryRow>`
    select r.key as repo, n.path, false as folder, n.name as archive_name, e.entry_path,
           e.entry_name, n.modified_at
    from archive_entries e
    join nodes n on n.id = e.node_id
    join repositories r on r.id = n.repository_id
    where (${name} like ${search.namePattern} or ${name} like ${`${search.namePattern}.class`})
      and r.key <> ${TRASH_REPO_KEY}
      and ${inRepositories(repoKeys)}
      and ${search.pathPattern === undefined ? sql`true` : sql`e.entry_path like ${search.pathPattern}`}
      and ${search.classesOnly ? sql`e.entry_name like '%.class'` : sql`true`}
      and ${search.excludeInnerClasses ? sql`e.entry_name not like '%$%'` : sql`true`}
    order by ${name}, n.id, e.entry_path
    limit ${limit} offset ${offset}`.execute(db);
  return rows;
}

/** A package version a package search found, with the file it was indexed from. */
export interface PackageVersionRow {
  repo: string;
  path: string;
  folder: false;
  package_type: string;
  package_name: string;
  version: string;
  modified_at: Date;
  size: number;
}

export interface PackageVersionSearch {
  packageType: string;
  /** LIKE patterns, lower-cased: names compare case-insensitively, versions exactly. */
  namePattern?: string;
  versionPattern?: string;
}

/** One batch of package versions (npm, PyPI) from the package index, by name then version. */
export async function packageVersionBatch(
  db: Database,
  search: PackageVersionSearch,
  repoKeys: readonly string[] | undefined,
  offset: number,
  limit: number,
): Promise<PackageVersionRow[]> {
  const { rows } = await sql<PackageVersionRow>`
    select r.key as repo, n.path, false as folder, p.package_type, p.name as package_name,
           v.version, n.modified_at, n.size
    from package_versions v
    join packages p on p.id = v.package_id
    join nodes n on n.id = v.node_id
    join repositories r on r.id = p.repository_id
    where p.package_type = ${search.packageType}
      and r.key <> ${TRASH_REPO_KEY}
      and ${inRepositories(repoKeys)}
      and ${search.namePattern === undefined ? sql`true` : sql`lower(p.name) like ${search.namePattern}`}
      and ${search.versionPattern === undefined ? sql`true` : sql`v.version like ${search.versionPattern}`}
    order by lower(p.name), v.id
    limit ${limit} offset ${offset}`.execute(db);
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}
