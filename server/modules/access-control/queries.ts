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

/** The principals a target names, in any of its sections. */
function principalRows(target: PermissionTarget) {
  const rows = new Map<
    string,
    { kind: 'users' | 'groups'; principal: string; target_name: string }
  >();
  for (const section of [target.repo, target.build, target.releaseBundle]) {
    for (const kind of ['users', 'groups'] as const)
      for (const principal of Object.keys(section?.actions[kind] ?? {}))
        rows.set(`${kind}\u0000${principal}`, { kind, principal, target_name: target.name });
  }
  return [...rows.values()];
}

async function writePrincipals(tx: Database, target: PermissionTarget) {
  await tx
    .deleteFrom('permission_target_principals')
    .where('target_name', '=', target.name)
    .execute();
  const rows = principalRows(target);
  if (rows.length > 0) await tx.insertInto('permission_target_principals').values(rows).execute();
}

export async function insertPermissionTarget(db: Database, target: PermissionTarget) {
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('permission_targets').values(toRow(target)).execute();
    await writePrincipals(tx, target);
  });
}

/** The targets that name a user, or one of its groups: all a decision for it needs. */
export async function permissionTargetsNaming(
  db: Database,
  user: string,
  groups: readonly string[],
): Promise<PermissionTarget[]> {
  const rows = await db
    .selectFrom('permission_targets')
    .select(['name', 'repo', 'build', 'release_bundle'])
    .where('name', 'in', (eb) =>
      eb
        .selectFrom('permission_target_principals')
        .select('target_name')
        .where((w) =>
          w.or([
            w.and([w('kind', '=', 'users'), w('principal', '=', user)]),
            ...(groups.length > 0
              ? [w.and([w('kind', '=', 'groups'), w('principal', 'in', [...groups])])]
              : []),
          ]),
        ),
    )
    .orderBy('name')
    .execute();
  return rows.map(toTarget);
}

/** Inserts or replaces a target whole; true when it did not exist before. */
export async function replacePermissionTarget(
  db: Database,
  target: PermissionTarget,
): Promise<boolean> {
  const row = toRow(target);
  return db.transaction().execute(async (tx) => {
    const inserted = await replaceRow(tx, row);
    await writePrincipals(tx, target);
    return inserted;
  });
}

async function replaceRow(db: Database, row: ReturnType<typeof toRow>): Promise<boolean> {
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
