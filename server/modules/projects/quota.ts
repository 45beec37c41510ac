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

/** The project's files (shared repositories count for their owner). */
const projectFiles = (db: Database, projectKey: string) =>
  db
    .selectFrom('nodes')
    .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
    .where(sql`repositories.config->>'projectKey'`, '=', projectKey)
    .where('nodes.folder', '=', false);

/**
 * The bytes a project stores: each content its files refer to once, however many files
 * refer to it (a layer shared by a thousand images of the project counts once), as the
 * filestore keeps it.
 */
export async function projectUsedBytes(db: Database, projectKey: string): Promise<number> {
  const row = await db
    .selectFrom('blobs')
    .select(sql<string>`coalesce(sum(blobs.size), 0)`.as('used'))
    .where('blobs.sha256', 'in', projectFiles(db, projectKey).select('nodes.sha256'))
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

/** Whether a repository belongs to a project: only then does a deploy check a quota. */
export const inProject = (repo: { config: Record<string, unknown> }) =>
  typeof repo.config.projectKey === 'string';

/** A file a deploy brings: its content's SHA-256 when known (then counted once per project). */
export interface IncomingFile {
  path: string;
  size: number;
  sha256?: string;
}

/**
 * Refuses a deploy that would take a project past its storage quota (docs/projects.md).
 * Contents count once per project: an incoming file whose content a file of the project
 * already holds adds nothing, and a file replaced at the same path frees its content only
 * when no other file of the project holds it. Called inside the deploy's transaction, before
 * any row is written, so a refusal keeps nothing. Two deploys racing may both pass: the
 * quota is a budget, not a lock.
 */
export async function assertProjectRoom(
  db: Database,
  repo: { id: number; config: Record<string, unknown> },
  files: ReadonlyArray<IncomingFile>,
): Promise<void> {
  const projectKey = repo.config.projectKey;
  if (typeof projectKey !== 'string' || files.length === 0) return;
  const quota = await quotaOf(db, projectKey);
  if (quota === undefined) return;
  const incomingShas = new Set(files.flatMap((file) => (file.sha256 ? [file.sha256] : [])));
  const held = await heldContents(db, projectKey, [...incomingShas]);
  const added = new Map<string, number>();
  for (const file of files)
    if (!file.sha256 || !held.has(file.sha256)) added.set(file.sha256 ?? file.path, file.size);
  const freed = await freedBytes(
    db,
    projectKey,
    repo.id,
    files.map((file) => file.path),
    incomingShas,
  );
  const incoming = [...added.values()].reduce((sum, size) => sum + size, 0);
  const after = (await projectUsedBytes(db, projectKey)) - freed + incoming;
  if (after > quota) throw new QuotaExceeded(projectKey);
}

/** Paths or checksums per query: a deploy may bring more than a statement may have parameters. */
const PER_QUERY = 1000;

function chunksOf<T>(items: T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += PER_QUERY)
    chunks.push(items.slice(start, start + PER_QUERY));
  return chunks;
}

/** Which of `shas` a file of the project already holds. */
async function heldContents(db: Database, projectKey: string, shas: string[]) {
  const held = new Set<string>();
  for (const chunk of chunksOf(shas)) {
    const rows = await projectFiles(db, projectKey)
      .select('nodes.sha256')
      .distinct()
      .where('nodes.sha256', 'in', chunk)
      .execute();
    for (const row of rows) if (row.sha256) held.add(row.sha256);
  }
  return held;
}

/**
 * The bytes the files now at `paths` free when replaced: each content once, and only one no
 * other file of the project holds and the deploy does not bring again.
 */
async function freedBytes(
  db: Database,
  projectKey: string,
  repositoryId: number,
  paths: string[],
  incomingShas: Set<string>,
) {
  const freed = new Map<string, number>();
  for (const chunk of chunksOf(paths)) {
    const rows = await db
      .selectFrom('nodes as replaced')
      .innerJoin('blobs', 'blobs.sha256', 'replaced.sha256')
      .select(['replaced.sha256', 'blobs.size'])
      .where('replaced.repository_id', '=', repositoryId)
      .where('replaced.folder', '=', false)
      .where('replaced.path', 'in', chunk)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('nodes as other')
              .innerJoin('repositories', 'repositories.id', 'other.repository_id')
              .select(sql`1`.as('one'))
              .whereRef('other.sha256', '=', 'replaced.sha256')
              .whereRef('other.id', '<>', 'replaced.id')
              .where('other.folder', '=', false)
              .where(sql`repositories.config->>'projectKey'`, '=', projectKey),
          ),
        ),
      )
      .execute();
    for (const row of rows)
      if (row.sha256 && !incomingShas.has(row.sha256)) freed.set(row.sha256, Number(row.size));
  }
  return [...freed.values()].reduce((sum, size) => sum + size, 0);
}
