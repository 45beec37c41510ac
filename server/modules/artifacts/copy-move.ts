import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../errors.ts';
import { acceptsPath } from './ant-pattern.ts';
import { ancestorsOf, folderRow, splitPath } from './paths.ts';
import type { ArtifactsService, IndexHook } from './service.ts';
import type { RepoAction } from '../access-control/decider.ts';

export type TransferKind = 'copy' | 'move';

export interface TransferRequest {
  kind: TransferKind;
  fromRepo: string;
  fromPath: string;
  toRepo: string;
  /** The new path of the item; ending in '/' means "into this folder, under its own name". */
  toPath: string;
  dryRun: boolean;
  user: string;
  /** Throws unless the caller may do the action there (services.access); checked per file. */
  authorize: (action: RepoAction, repoKey: string, path: string) => void;
}

/**
 * For transfers Depot makes itself (into and out of the trash can): the route that asked for
 * them has already checked the caller.
 */
export const CHECKED_BY_CALLER: TransferRequest['authorize'] = () => undefined;

export interface TransferResult {
  files: number;
  folders: number;
  message: string;
}

type Tx = Transaction<DepotDatabase>;
type Item = {
  id: number;
  path: string;
  folder: boolean;
  sha256: string | null;
  sha1: string | null;
  size: number;
};
interface Plan {
  targetId: number;
  items: Item[];
  rename: (path: string) => string;
  user: string;
  /** The target format's index rows for copied files, by source path (server/formats/). */
  indexes: Map<string, IndexHook>;
}

const VERB = { copy: ['copying', 'copied'], move: ['moving', 'moved'] } as const;

/** Where the item lands: `to` itself, or inside `to/` under the item's own name. */
function targetRoot(fromPath: string, toPath: string): string {
  if (toPath !== '' && !toPath.endsWith('/')) return toPath;
  const { name } = splitPath(fromPath);
  return [toPath.replace(/\/$/, ''), name].filter(Boolean).join('/');
}

/**
 * Copy and move are metadata only: the new rows refer to the same blobs, so nothing is read
 * or written in the filestore. A dry run checks everything a real run would and writes
 * nothing; a real run is one transaction, so it happens whole or not at all.
 */
export async function transfer(
  db: Database,
  artifacts: ArtifactsService,
  request: TransferRequest,
): Promise<TransferResult> {
  const source = await artifacts.repository(request.fromRepo);
  const target = await artifacts.repository(request.toRepo);
  if (source.rclass !== 'local' || target.rclass !== 'local') {
    throw new BadRequest(`Only local repositories can be ${VERB[request.kind][1]} from and to`);
  }
  const root = request.fromPath ? await artifacts.findNode(source.id, request.fromPath) : undefined;
  if (request.fromPath && !root) {
    // A caller who may not read the path learns nothing of it: the refusal comes first.
    request.authorize('read', source.key, request.fromPath);
    throw new NotFound(`Could not find '${source.key}/${request.fromPath}'`);
  }
  const toRoot = targetRoot(request.fromPath, request.toPath);
  const into = (path: string) =>
    path === request.fromPath || path.startsWith(`${request.fromPath}/`);
  if (source.id === target.id && (request.fromPath === '' || into(toRoot))) {
    throw new BadRequest(`Cannot ${request.kind} '${request.fromPath}' into itself`);
  }

  const below = await artifacts.listBelow(source.id, request.fromPath, {
    deep: true,
    withFolders: true,
  });
  const items: Item[] = [...(root ? [root] : []), ...below];
  const rename = (path: string) =>
    request.fromPath === ''
      ? [toRoot, path].filter(Boolean).join('/')
      : toRoot + path.slice(request.fromPath.length);
  for (const item of items.filter((i) => !i.folder)) {
    // Reading the source, deploying the copy, and for a move deleting the original.
    request.authorize('read', source.key, item.path);
    if (request.kind === 'move') request.authorize('delete', source.key, item.path);
    request.authorize('deploy', target.key, rename(item.path));
    if (!acceptsPath(target.includes_pattern, target.excludes_pattern, rename(item.path))) {
      throw new Forbidden(
        `The path '${rename(item.path)}' is not allowed by the include and exclude patterns of repository '${target.key}'`,
      );
    }
  }

  // A package file lands indexed in its new repository, as a deploy there would; a file the
  // target's format refuses stops the transfer, dry run included.
  const indexes = new Map<string, IndexHook>();
  for (const item of items.filter((i) => !i.folder && i.sha256)) {
    const blob = { sha256: item.sha256!, sha1: item.sha1!, size: Number(item.size) };
    const hook = await artifacts.indexStored(target, rename(item.path), blob, request.user);
    if (hook) indexes.set(item.path, hook);
  }
  const files = items.filter((i) => !i.folder).length;
  const folders = items.length - files;
  const [doing, done] = VERB[request.kind];
  const what = `${doing} ${source.key}:${request.fromPath} to ${target.key}:${toRoot}`;
  if (request.dryRun) {
    return {
      files,
      folders,
      message: `${what} dry run completed successfully, ${files} artifacts and ${folders} folders would be ${done}`,
    };
  }
  await db.transaction().execute(async (tx) => {
    await applyPlan(tx, { targetId: target.id, items, rename, user: request.user, indexes });
    if (request.kind === 'move' && items.length > 0) {
      await tx
        .deleteFrom('nodes')
        .where(
          'id',
          'in',
          items.map((i) => i.id),
        )
        .execute();
    }
  });
  return {
    files,
    folders,
    message: `${what} completed successfully, ${files} artifacts and ${folders} folders were ${done}`,
  };
}

async function applyPlan(tx: Tx, plan: Plan) {
  const first = plan.items[0];
  if (first)
    for (const folder of ancestorsOf(plan.rename(first.path))) await ensureFolder(tx, plan, folder);
  for (const item of plan.items) {
    if (item.folder) await ensureFolder(tx, plan, plan.rename(item.path));
    else await copyFile(tx, plan, item);
  }
}

async function existingNode(tx: Tx, repositoryId: number, path: string) {
  return tx
    .selectFrom('nodes')
    .select('folder')
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path)
    .executeTakeFirst();
}

async function ensureFolder(tx: Tx, plan: Plan, path: string) {
  const existing = await existingNode(tx, plan.targetId, path);
  if (existing?.folder) return;
  if (existing) throw new Conflict(`'${path}' is a file in the target: it cannot hold a folder`);
  await tx
    .insertInto('nodes')
    .values(folderRow(plan.targetId, path, plan.user))
    .execute();
}

/** A new row for the same blob, with the original's properties. */
async function copyFile(tx: Tx, plan: Plan, item: Item) {
  const path = plan.rename(item.path);
  if ((await existingNode(tx, plan.targetId, path))?.folder) {
    throw new Conflict(`A folder exists at '${path}' in the target: a file cannot replace it`);
  }
  const original = await tx
    .selectFrom('nodes')
    .select(['sha256', 'size', 'mime_type'])
    .where('id', '=', item.id)
    .executeTakeFirstOrThrow();
  const now = new Date();
  const content = { ...original, modified_at: now, modified_by: plan.user };
  const { parentPath, name } = splitPath(path);
  const { id } = await tx
    .insertInto('nodes')
    .values({
      repository_id: plan.targetId,
      path,
      parent_path: parentPath,
      name,
      folder: false,
      created_at: now,
      created_by: plan.user,
      ...content,
    })
    .onConflict((c) => c.columns(['repository_id', 'path']).doUpdateSet(content))
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.deleteFrom('node_properties').where('node_id', '=', id).execute();
  const properties = await tx
    .selectFrom('node_properties')
    .select(['key', 'value'])
    .where('node_id', '=', item.id)
    .execute();
  if (properties.length > 0) {
    await tx
      .insertInto('node_properties')
      .values(properties.map((p) => ({ node_id: id, ...p })))
      .execute();
  }
  await plan.indexes.get(item.path)?.(tx, { id: Number(id), repositoryId: plan.targetId });
}
