import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { DepotError } from '../../errors.ts';
import { PROJECT_MESSAGES as M } from './messages.ts';

/** 413, as Artifactory answers a deploy over a storage quota. */
export class QuotaExceeded extends DepotError {
  constructor(projectKey: string) {
    super(413, M.quotaExceeded(projectKey));
  }
}

/** The bytes of files in the repositories a project owns (shared ones count for their owner). */
export async function projectUsedBytes(db: Database, projectKey: string): Promise<number> {
  const row = await db
    .selectFrom('nodes')
    .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
    .select(sql<string>`coalesce(sum(nodes.size), 0)`.as('used'))
    .where(sql`repositories.config->>'projectKey'`, '=', projectKey)
    .where('nodes.folder', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/** A project's quota in bytes, or undefined when it has none (null or -1). */
async function quotaOf(db: Database, projectKey: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('projects')
    .select('storage_quota_bytes')
    .where('key', '=', projectKey)
    .executeTakeFirst();
  const quota = row?.storage_quota_bytes == null ? -1 : Number(row.storage_quota_bytes);
  return quota < 0 ? undefined : quota;
}

/**
 * Refuses a deploy that would take a project past its storage quota (docs/projects.md).
 * `files` are the incoming files; a file replacing one at the same path frees the old size.
 * Called inside the deploy's transaction, before any row is written, so a refusal keeps
 * nothing. Two deploys racing may both pass: the quota is a budget, not a lock.
 */
export async function assertProjectRoom(
  db: Database,
  repo: { id: number; config: Record<string, unknown> },
  files: ReadonlyArray<{ path: string; size: number }>,
): Promise<void> {
  const projectKey = repo.config.projectKey;
  if (typeof projectKey !== 'string' || files.length === 0) return;
  const quota = await quotaOf(db, projectKey);
  if (quota === undefined) return;
  const replaced = await replacedBytes(
    db,
    repo.id,
    files.map((file) => file.path),
  );
  const incoming = files.reduce((sum, file) => sum + file.size, 0);
  const after = (await projectUsedBytes(db, projectKey)) - replaced + incoming;
  if (after > quota) throw new QuotaExceeded(projectKey);
}

/** Paths per query: an archive may hold more files than a statement may have parameters. */
const PATHS_PER_QUERY = 1000;

/** The bytes of the files now at `paths`, which the incoming files would replace. */
async function replacedBytes(db: Database, repositoryId: number, paths: string[]) {
  let bytes = 0;
  for (let start = 0; start < paths.length; start += PATHS_PER_QUERY) {
    const row = await db
      .selectFrom('nodes')
      .select(sql<string>`coalesce(sum(size), 0)`.as('bytes'))
      .where('repository_id', '=', repositoryId)
      .where('folder', '=', false)
      .where('path', 'in', paths.slice(start, start + PATHS_PER_QUERY))
      .executeTakeFirstOrThrow();
    bytes += Number(row.bytes);
  }
  return bytes;
}
