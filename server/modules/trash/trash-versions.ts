import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { ancestorsOf, escapeLike, splitPath } from '../artifacts/paths.ts';
import { holdForRemoval } from '../artifacts/tree-writes.ts';

type Tx = Transaction<DepotDatabase>;

/** When and by whom an item was deleted: properties of the item's root in the trash. */
export const DELETED_AT = 'trash.deleted';
export const DELETED_BY = 'trash.deletedBy';
/**
 * Where an earlier deletion set aside (`f.txt~1`) was deleted from, as a path in the trash
 * (`{repoKey}/{path}`): a restore without a target puts it back there.
 */
export const DELETED_FROM = 'trash.deletedFrom';

/** Advisory lock namespace "DPT2": items landing in the trash, one transaction at a time. */
const LANDING_LOCK = 0x44505432;

/**
 * Keeps an earlier deletion of the same path when a new one lands at `root` in the trash:
 * what the trash holds at `root`, and a file it holds above it, is renamed aside to the
 * first free `{name}~{n}` in its folder, with where it was deleted from. Landings take turns
 * (an advisory lock held until commit), so each sees what the one before it left.
 */
export async function setAsideEarlierDeletion(tx: Tx, trashId: number, root: string) {
  await sql`select pg_advisory_xact_lock(${LANDING_LOCK}::int, ${trashId}::int)`.execute(tx);
  const taken = await tx
    .selectFrom('nodes')
    .select(['path', 'folder'])
    .where('repository_id', '=', trashId)
    .where('path', 'in', [...ancestorsOf(root), root])
    .execute();
  for (const node of taken) {
    if (node.path === root || !node.folder) await setAside(tx, trashId, node.path);
  }
}

/** Renames a node of the trash and everything below it to `{name}~{n}`, n the first free. */
async function setAside(tx: Tx, trashId: number, path: string) {
  await holdForRemoval(tx, trashId, path);
  const { parentPath, name } = splitPath(path);
  const siblings = await tx
    .selectFrom('nodes')
    .select('name')
    .where('repository_id', '=', trashId)
    .where('parent_path', '=', parentPath)
    .where('name', 'like', `${escapeLike(name)}~%`)
    .execute();
  const used = siblings.map((s) => /^~(\d+)$/.exec(s.name.slice(name.length))?.[1] ?? '0');
  const asideName = `${name}~${Math.max(0, ...used.map(Number)) + 1}`;
  const aside = parentPath ? `${parentPath}/${asideName}` : asideName;
  const rest = (column: 'path' | 'parent_path') =>
    sql<string>`${aside} || substr(${sql.ref(column)}, char_length(${path}) + 1)`;
  await tx
    .updateTable('nodes')
    .set({
      path: rest('path'),
      parent_path: sql`case when path = ${path} then parent_path else ${rest('parent_path')} end`,
      name: sql`case when path = ${path} then ${asideName} else name end`,
    })
    .where('repository_id', '=', trashId)
    .where((eb) => eb.or([eb('path', '=', path), eb('path', 'like', `${escapeLike(path)}/%`)]))
    .execute();
  const moved = await tx
    .selectFrom('nodes')
    .select('id')
    .where('repository_id', '=', trashId)
    .where('path', '=', aside)
    .executeTakeFirstOrThrow();
  // An item set aside twice keeps where it was first deleted from.
  const known = await tx
    .selectFrom('node_properties')
    .select('node_id')
    .where('node_id', '=', moved.id)
    .where('key', '=', DELETED_FROM)
    .executeTakeFirst();
  if (!known)
    await tx
      .insertInto('node_properties')
      .values({ node_id: moved.id, key: DELETED_FROM, value: path })
      .execute();
}

/**
 * Marks the root of what just landed in the trash with when and by whom it was deleted. No
 * item in it says where it was deleted from (only an item set aside later does).
 */
export async function recordDeletion(tx: Tx, trashId: number, root: string, user: string) {
  const landed = await tx
    .selectFrom('nodes')
    .select('id')
    .where('repository_id', '=', trashId)
    .where('path', '=', root)
    .executeTakeFirstOrThrow();
  await dropProperties(tx, trashId, root, [DELETED_FROM]);
  await tx
    .insertInto('node_properties')
    .values([
      { node_id: landed.id, key: DELETED_AT, value: new Date().toISOString() },
      { node_id: landed.id, key: DELETED_BY, value: user },
    ])
    .onConflict((c) => c.doNothing())
    .execute();
}

/** Drops the trash's own properties from everything just restored, its root and below. */
export async function forgetDeletion(tx: Tx, repositoryId: number, root: string) {
  await dropProperties(tx, repositoryId, root, [DELETED_AT, DELETED_BY, DELETED_FROM]);
}

async function dropProperties(tx: Tx, repositoryId: number, root: string, keys: string[]) {
  await tx
    .deleteFrom('node_properties')
    .where('key', 'in', keys)
    .where('node_id', 'in', (eb) =>
      eb
        .selectFrom('nodes')
        .select('id')
        .where('repository_id', '=', repositoryId)
        .where((w) => w.or([w('path', '=', root), w('path', 'like', `${escapeLike(root)}/%`)])),
    )
    .execute();
}

/**
 * Where the item at `trashPath` was deleted from, as a path in the trash: its own path, or,
 * inside an earlier deletion set aside, the path that deletion had before it was.
 */
export async function deletedFrom(db: Database, trashId: number, trashPath: string) {
  const chain = [...ancestorsOf(trashPath), trashPath];
  const marked = await db
    .selectFrom('nodes')
    .innerJoin('node_properties', 'node_properties.node_id', 'nodes.id')
    .select(['nodes.path', 'node_properties.value'])
    .where('nodes.repository_id', '=', trashId)
    .where('nodes.path', 'in', chain)
    .where('node_properties.key', '=', DELETED_FROM)
    .orderBy(({ fn }) => fn('length', ['nodes.path']), 'desc')
    .executeTakeFirst();
  if (!marked) return trashPath;
  return marked.value + trashPath.slice(marked.path.length);
}
