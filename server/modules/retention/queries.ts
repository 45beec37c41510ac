import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { Criterion } from '../search/criteria.ts';
import { BLOB_FIELDS, whereSql } from '../search/item-sql.ts';
import { TRASH_REPO_KEY } from '../trash/trash-key.ts';

type Tx = Transaction<DepotDatabase>;

/** A file a policy may take out of its repository. */
export interface Candidate {
  id: number;
  repositoryId: number;
  repo: string;
  rclass: string;
  packageType: string;
  path: string;
  parentPath: string;
  name: string;
  sha256: string;
  sha1: string;
  md5: string | null;
  size: number;
  mimeType: string | null;
  createdAt: Date;
  createdBy: string;
}

/**
 * What a kept build needs (docs/retention.md, "What a policy never takes"), as two lists:
 * the builds' own build-info files (`node_id`), and the contents a stored build lists as an
 * artifact or a dependency, by SHA-256 or by SHA-1 (`sha256`): a row's SHA-1 is resolved to
 * the stored content's SHA-256 as either is written (`content_by_sha1`, migration 0060).
 */
export const KEPT_BY_BUILDS = {
  files: sql`select node_id from builds`,
  contents: sql`select sha256 from build_files where sha256 is not null
    union
    select content_by_sha1 from build_files where content_by_sha1 is not null`,
};

/**
 * Where candidateCondition reads the two lists: by default, subqueries of KEPT_BY_BUILDS.
 * `undefined` says the list is known to be empty (the caller looked, in the same snapshot):
 * its test is left out, as it could refuse no file.
 */
export interface KeptSources {
  files: RawBuilder<unknown> | undefined;
  contents: RawBuilder<unknown> | undefined;
  /**
   * Tests a file's content against `contents` with `not in`, which the database answers from
   * one hash of the list (a hashed subplan) while the list fits the statement's memory, rather
   * than `not exists` (see preview-queries.ts, `KEPT_CONTENTS_HASHED`).
   */
  contentsHashed?: boolean;
}
const KEPT_SUBQUERIES: KeptSources = {
  files: sql`(${KEPT_BY_BUILDS.files})`,
  contents: sql`(${KEPT_BY_BUILDS.contents})`,
};

/**
 * What makes a file a candidate: it matches `where`, and it is not what a kept build needs.
 * The trash can is never a policy's. Reads `nodes n` and `repositories r`, and `blobs b`
 * when the criterion does (criterionReadsBlobs). A preview passes the two lists as names
 * of its own (materialized once per statement: preview-queries.ts).
 */
export const candidateCondition = (where: Criterion, kept: KeptSources = KEPT_SUBQUERIES) => sql`
  r.key <> ${TRASH_REPO_KEY} and not n.folder and ${whereSql(where)}
  ${kept.files ? sql`and not exists (select 1 from ${kept.files} k where k.node_id = n.id)` : sql``}
  ${kept.contents ? keptContentTest(kept.contents, kept.contentsHashed) : sql``}`;

const keptContentTest = (contents: RawBuilder<unknown>, hashed = false) =>
  hashed
    ? sql`and (n.sha256 is null or n.sha256 not in (select k.sha256 from ${contents} k))`
    : sql`and not exists (select 1 from ${contents} k where k.sha256 = n.sha256)`;

/** Whether the criterion's SQL reads `blobs b`: a checksum field, or a build relation (by SHA-1). */
export function criterionReadsBlobs(criterion: Criterion): boolean {
  switch (criterion.kind) {
    case 'field':
      return BLOB_FIELDS.has(criterion.field);
    case 'build':
      return true;
    case 'and':
    case 'or':
      return criterion.items.some(criterionReadsBlobs);
    default:
      return false;
  }
}

/**
 * Candidates in id order after `afterId`; `remoteOnly` keeps to remote repositories (the
 * only ones whose files need a look by path, selection.ts).
 */
export async function candidateBatch(
  db: Database,
  where: Criterion,
  afterId: number,
  limit: number,
  remoteOnly = false,
): Promise<Candidate[]> {
  const { rows } = await sql<Record<string, unknown>>`
    select n.id, n.repository_id, r.key as repo, r.rclass, r.package_type, n.path,
           n.parent_path, n.name, n.sha256, b.sha1, b.md5, n.size, n.mime_type,
           n.created_at, n.created_by
    from nodes n
    join repositories r on r.id = n.repository_id
    join blobs b on b.sha256 = n.sha256
    where n.id > ${afterId} and ${candidateCondition(where)}
      ${remoteOnly ? sql`and r.rclass = 'remote'` : sql``}
    order by n.id
    limit ${limit}`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    repositoryId: Number(row.repository_id),
    repo: String(row.repo),
    rclass: String(row.rclass),
    packageType: String(row.package_type),
    path: String(row.path),
    parentPath: String(row.parent_path),
    name: String(row.name),
    sha256: String(row.sha256),
    sha1: String(row.sha1),
    md5: row.md5 === null ? null : String(row.md5),
    size: Number(row.size),
    mimeType: row.mime_type === null ? null : String(row.mime_type),
    createdAt: new Date(row.created_at as Date),
    createdBy: String(row.created_by),
  }));
}

/** Whether any remote repository holds a file: when none does, no file needs a look by path. */
export async function remoteFilesExist(db: Database): Promise<boolean> {
  const { rows } = await sql`select 1 from nodes n join repositories r on r.id = n.repository_id
    where r.rclass = 'remote' and not n.folder limit 1`.execute(db);
  return rows.length > 0;
}

/** The file's row as it is now, held for removal by the caller's transaction. */
export function currentFile(tx: Tx, repositoryId: number, path: string) {
  return tx
    .selectFrom('nodes')
    .select(['id', 'sha256', 'folder'])
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path)
    .executeTakeFirst();
}

export async function recordArchivedItem(
  tx: Tx,
  executionId: number,
  action: 'archive' | 'delete',
  item: Candidate,
  properties: Record<string, string[]>,
) {
  await tx
    .insertInto('retention_items')
    .values({
      execution_id: executionId,
      action,
      repo_key: item.repo,
      path: item.parentPath,
      name: item.name,
      sha256: item.sha256,
      sha1: item.sha1,
      md5: item.md5,
      size: item.size,
      mime_type: item.mimeType,
      properties: JSON.stringify(properties),
      item_created_at: item.createdAt,
      item_created_by: item.createdBy,
    })
    .execute();
}
