import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { PermissionSection, PermissionTarget } from './permission-target.ts';

type Row = {
  name: string;
  repo: PermissionSection | null;
  build: PermissionSection | null;
  release_bundle: PermissionSection | null;
};

function toTarget(row: Row): PermissionTarget {
  return {
    name: row.name,
    ...(row.repo ? { repo: row.repo } : {}),
    ...(row.build ? { build: row.build } : {}),
    ...(row.release_bundle ? { releaseBundle: row.release_bundle } : {}),
  };
}

const json = (section: PermissionSection | undefined) => (section ? JSON.stringify(section) : null);

const toRow = (target: PermissionTarget) => ({
  name: target.name,
  repo: json(target.repo),
  build: json(target.build),
  release_bundle: json(target.releaseBundle),
});

export async function listPermissionTargets(db: Database): Promise<PermissionTarget[]> {
  const rows = await db
    .selectFrom('permission_targets')
    .select(['name', 'repo', 'build', 'release_bundle'])
    .orderBy('name')
    .execute();
  return rows.map(toTarget);
}

export async function insertPermissionTarget(db: Database, target: PermissionTarget) {
  await db.insertInto('permission_targets').values(toRow(target)).execute();
}

/** Inserts or replaces a target whole; true when it did not exist before. */
export async function replacePermissionTarget(
  db: Database,
  target: PermissionTarget,
): Promise<boolean> {
  const row = toRow(target);
  const result = await db
    .insertInto('permission_targets')
    .values(row)
    .onConflict((c) =>
      c.column('name').doUpdateSet({
        repo: row.repo,
        build: row.build,
        release_bundle: row.release_bundle,
        updated_at: new Date(),
      }),
    )
    // xmax is 0 for a freshly inserted row, the updating transaction's id otherwise.
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .executeTakeFirstOrThrow();
  return result.inserted;
}

export async function deletePermissionTarget(db: Database, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('permission_targets')
    .where('name', '=', name)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function groupNamesOf(db: Database, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_groups')
    .innerJoin('groups', 'groups.id', 'user_groups.group_id')
    .select('groups.name')
    .where('user_groups.user_id', '=', userId)
    .execute();
  return rows.map((row) => row.name);
}
