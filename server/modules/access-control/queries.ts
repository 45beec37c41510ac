import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { escapeLike } from '../artifacts/paths.ts';
import {
  presentSections,
  type DestinationSection,
  type PermissionSection,
  type PermissionTarget,
  type PipelineSection,
  type SectionName,
  type XraySection,
} from './permission-target.ts';

type Row = {
  name: string;
  repo: PermissionSection | null;
  build: PermissionSection | null;
  release_bundle: PermissionSection | null;
  destination: DestinationSection | null;
  pipeline_source: PipelineSection | null;
  xray_source: XraySection | null;
};

/** The target's section names and their columns. */
const COLUMNS = {
  repo: 'repo',
  build: 'build',
  releaseBundle: 'release_bundle',
  destination: 'destination',
  pipelineSource: 'pipeline_source',
  xraySource: 'xray_source',
} as const satisfies Record<SectionName, keyof Row>;
const SELECTED = ['name', ...Object.values(COLUMNS)] as const;

function toTarget(row: Row): PermissionTarget {
  const target: PermissionTarget = { name: row.name };
  for (const [section, column] of Object.entries(COLUMNS) as [SectionName, keyof Row][]) {
    if (row[column]) Object.assign(target, { [section]: row[column] });
  }
  return target;
}

const json = (section: object | undefined) => (section ? JSON.stringify(section) : null);

const toRow = (target: PermissionTarget) => ({
  name: target.name,
  repo: json(target.repo),
  build: json(target.build),
  release_bundle: json(target.releaseBundle),
  destination: json(target.destination),
  pipeline_source: json(target.pipelineSource),
  xray_source: json(target.xraySource),
});

export async function listPermissionTargets(db: Database): Promise<PermissionTarget[]> {
  const rows = await db.selectFrom('permission_targets').select(SELECTED).orderBy('name').execute();
  return rows.map(toTarget);
}

/** The principals a target names, in any of its sections. */
function principalRows(target: PermissionTarget) {
  const rows = new Map<
    string,
    { kind: 'users' | 'groups'; principal: string; target_name: string }
  >();
  for (const section of presentSections(target)) {
    for (const kind of ['users', 'groups'] as const)
      for (const principal of Object.keys(section.actions[kind]))
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
    .select(SELECTED)
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
    .onConflict((c) => c.column('name').doUpdateSet({ ...row, updated_at: new Date() }))
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

/**
 * One page of the nodes at and below `path` of a repository ('' is all of it), in path
 * order, after the path `after`: the item walker's (subtree-walk.ts) read of a tree.
 */
export function subtreePage(
  db: Database,
  repositoryId: number,
  path: string,
  after: string | undefined,
  limit: number,
): Promise<{ path: string; folder: boolean }[]> {
  return db
    .selectFrom('nodes')
    .select(['path', 'folder'])
    .where('repository_id', '=', repositoryId)
    .$if(path !== '', (q) =>
      q.where((eb) => eb.or([eb('path', '=', path), eb('path', 'like', `${escapeLike(path)}/%`)])),
    )
    .$if(after !== undefined, (q) => q.where('path', '>', after!))
    .orderBy('path')
    .limit(limit)
    .execute();
}
