import { sql, type Kysely } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import { toProject, type Project } from '../projects/service.ts';

export type Db = Kysely<DepotDatabase>;

/** Every repository row, by key. */
export const repositoryRows = (db: Db) =>
  db.selectFrom('repositories').selectAll().orderBy('key').execute();

/** Every project, by key, in JFrog Access's shape. */
export async function projectRows(db: Db): Promise<Project[]> {
  const rows = await db.selectFrom('projects').selectAll().orderBy('key').execute();
  return rows.map(toProject);
}

/** How many files and folders a repository holds. */
export async function itemsIn(db: Db, repositoryId: number): Promise<number> {
  const row = await db
    .selectFrom('nodes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('repository_id', '=', repositoryId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Removes an empty repository's row; what refers to it goes with it (cascades). */
export async function deleteRepositoryRow(db: Db, repositoryId: number): Promise<void> {
  await db.deleteFrom('repositories').where('id', '=', repositoryId).execute();
}

/** Keeps the upstream password exactly as the document sealed it (see repository-writes.ts). */
export async function keepSealedPassword(db: Db, repositoryId: number, sealed: string) {
  const row = await db
    .selectFrom('repositories')
    .select('config')
    .where('id', '=', repositoryId)
    .executeTakeFirstOrThrow();
  const config = { ...(row.config as Record<string, unknown>), password: sealed };
  await db
    .updateTable('repositories')
    .set({ config: JSON.stringify(config) })
    .where('id', '=', repositoryId)
    .execute();
}

/** An arbitrary number naming the lock below; other advisory locks use other numbers. */
const CONFIGURATION_LOCK = 0x636f6e66; // 'conf'

/**
 * Holds configuration changes to one at a time across every node until the transaction
 * ends: two documents applied at once would each compare against what the other replaces.
 */
export async function holdConfigurationLock(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(${CONFIGURATION_LOCK}::int)`.execute(db);
}
