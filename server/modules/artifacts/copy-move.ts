import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../errors.ts';
import { acceptsPath } from './ant-pattern.ts';
import { ancestorsOf, folderRow, splitPath } from './paths.ts';
import type { ArtifactsService, IndexHook } from './service.ts';
import type { ItemWalker, Need } from '../access-control/subtree-walk.ts';

export type TransferKind = 'copy' | 'move';

export interface TransferRequest {
  kind: TransferKind;
  fromRepo: string;
  fromPath: string;
  toRepo: string;
  /** The new path of the item; ending in '/' means "into this folder, under its own name". */
  toPath: string;
  dryRun: boolean;
  /**
   * The caller's item walker: every item is checked through it before anything is written
   * (Read on the source, Delete too for a move, Deploy where it lands, and Delete/Overwrite
   * where that replaces a file). A refusal of one stops the whole transfer.
   */
  walker: ItemWalker;
  /** A delete into the trash can: Delete on each item is all it needs; the trash is Depot's. */
  intoTrash?: boolean;
}

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
    request.walker.check([request.fromPath], {
      named: { repoKey: source.key, path: request.fromPath, action: request.kind },
      needs: (path) => [{ action: 'read', repoKey: source.key, path, kind: 'file' }],
    });
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
  await checkEveryItem(db, request, { source, target, items, rename });
  for (const item of items.filter((i) => !i.folder)) {
    if (!acceptsPath(target.includes_pattern, target.excludes_pattern, rename(item.path))) {
      throw new Forbidden(
        `The path '${rename(item.path)}' is not allowed by the include and exclude patterns of repository '${target.key}'`,
      );
    }
  }

  const user = request.walker.principal.name;
  // A package file lands indexed in its new repository, as a deploy there would; a file the
  // target's format refuses stops the transfer, dry run included.
  const indexes = new Map<string, IndexHook>();
  for (const item of items.filter((i) => !i.folder && i.sha256)) {
    const blob = { sha256: item.sha256!, sha1: item.sha1!, size: Number(item.size) };
    const hook = await artifacts.indexStored(target, rename(item.path), blob, user);
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
    await applyPlan(tx, { targetId: target.id, items, rename, user, indexes });
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

type Repository = Awaited<ReturnType<ArtifactsService['repository']>>;

/**
 * Checks every item of a transfer through the caller's walker before anything is written:
 * Read on the source (and Delete for a move), Deploy where it lands, Delete/Overwrite where
 * that replaces a file. A delete into the trash can needs Delete on each item only.
 */
async function checkEveryItem(
  db: Database,
  request: TransferRequest,
  plan: { source: Repository; target: Repository; items: Item[]; rename: (path: string) => string },
) {
  const { walker } = request;
  if (walker.access.admin) return;
  const { source, target, items, rename } = plan;
  const replaced = request.intoTrash
    ? new Set<string>()
    : await existingFiles(
        db,
        target.id,
        items.filter((i) => !i.folder).map((i) => rename(i.path)),
      );
  const needs = (item: Item): Need[] => {
    const kind = item.folder ? 'folder' : 'file';
    const at = { repoKey: source.key, path: item.path, kind } as const;
    if (request.intoTrash) return [{ action: 'delete', ...at }];
    // Where it lands is named by the request and by items the caller has just been allowed
    // to read: a refusal there may name it.
    const landing = { repoKey: target.key, path: rename(item.path), kind, known: true } as const;
    return [
      { action: 'read', ...at },
      ...(request.kind === 'move' ? [{ action: 'delete', ...at } as const] : []),
      { action: 'deploy', ...landing },
      ...(replaced.has(landing.path)
        ? [{ action: 'delete', verb: 'overwrite', ...landing } as const]
        : []),
    ];
  };
  const action = request.intoTrash ? 'delete' : request.kind;
  walker.check(items, { named: { repoKey: source.key, path: request.fromPath, action }, needs });
}

/** Which of these paths are files of a repository already: a transfer would replace them. */
async function existingFiles(db: Database, repositoryId: number, paths: string[]) {
  const found = new Set<string>();
  for (let start = 0; start < paths.length; start += EXISTING_BATCH) {
    const rows = await db
      .selectFrom('nodes')
      .select('path')
      .where('repository_id', '=', repositoryId)
      .where('folder', '=', false)
      .where('path', 'in', paths.slice(start, start + EXISTING_BATCH))
      .execute();
    for (const row of rows) found.add(row.path);
  }
  return found;
}

/** Paths asked about per query when looking for files a transfer would replace. */
const EXISTING_BATCH = 1000;

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
