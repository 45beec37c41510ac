import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../errors.ts';
import { acceptsPath } from './ant-pattern.ts';
import { splitPath } from './paths.ts';
import type { ArtifactsService, IndexHook } from './service.ts';
import type { ItemWalker, Need } from '../access-control/subtree-walk.ts';
import {
  holdForCopy,
  holdForRemoval,
  holdRepositoryForRemoval,
  placeFile,
  placeFolder,
} from './tree-writes.ts';
import { fileEvents, transferEvents } from '../events/artifact-events.ts';
import { emitEvents } from '../events/outbox.ts';
import { dropBuildsOf } from '../builds/dropped-builds.ts';

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
  /**
   * Files it would replace refuse the transfer instead (a restore from the trash never
   * overwrites newer content): answers the refusal for the paths, dry run included.
   */
  refuseOverwrite?: (paths: string[]) => Error;
  /**
   * Run inside the transfer's transaction with where the item lands in the target: `before`
   * once the source is held and checked, before anything lands (the trash can sets aside an
   * earlier deletion of the same path); `after` once it has landed.
   */
  landing?: {
    before?: (tx: Tx, landing: Landing) => Promise<void>;
    after?: (tx: Tx, landing: Landing) => Promise<void>;
  };
}

/** Where a transfer's item lands: a repository and the path of the item in it. */
export interface Landing {
  repositoryId: number;
  root: string;
}

export interface TransferResult {
  files: number;
  folders: number;
  message: string;
  /** Where the item landed in the target repository. */
  landedAt: string;
}

type Tx = Transaction<DepotDatabase>;
type Item = {
  id: number;
  path: string;
  folder: boolean;
  sha256: string | null;
  sha1: string | null;
  size: number;
  mime_type: string | null;
};
type Repository = Awaited<ReturnType<ArtifactsService['repository']>>;

/** A transfer worked out before its transaction: what moves where, checked and indexed. */
interface Plan {
  source: Repository;
  target: Repository;
  /** The item the request names (absent for a repository's root), then everything below it. */
  items: Item[];
  toRoot: string;
  rename: (path: string) => string;
  user: string;
  /** Files of the target the transfer replaces, as found while planning. */
  replaced: Set<string>;
  /** The target format's index rows for copied files, by source path (server/formats/). */
  indexes: Map<string, IndexHook>;
}

/** The source or target changed between planning and writing: plan again. */
class PlanOutdated extends Error {}

/** Plans made, each after the last turned out outdated, before the caller gets a 409. */
const PLAN_ATTEMPTS = 4;

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
 * nothing. A real run is one transaction that holds the source first and reads it again:
 * when it changed since it was planned (a concurrent move, delete or deploy), the transfer is
 * planned again; one whose source is gone answers 404, as if it had come second.
 */
export async function transfer(
  db: Database,
  artifacts: ArtifactsService,
  request: TransferRequest,
): Promise<TransferResult> {
  for (let attempt = 1; ; attempt++) {
    const plan = await planTransfer(db, artifacts, request);
    if (request.dryRun) return outcome(request, plan, true);
    try {
      await retryTransaction(() =>
        db.transaction().execute((tx) => applyTransfer(tx, artifacts, request, plan)),
      );
      return outcome(request, plan, false);
    } catch (error) {
      if (!(error instanceof PlanOutdated)) throw error;
      if (attempt >= PLAN_ATTEMPTS)
        throw new Conflict(
          `'${plan.source.key}/${request.fromPath}' kept changing while being ${VERB[request.kind][1]}: try again`,
        );
    }
  }
}

function outcome(request: TransferRequest, plan: Plan, dryRun: boolean): TransferResult {
  const files = plan.items.filter((i) => !i.folder).length;
  const folders = plan.items.length - files;
  const [doing, done] = VERB[request.kind];
  const what = `${doing} ${plan.source.key}:${request.fromPath} to ${plan.target.key}:${plan.toRoot}`;
  const message = dryRun
    ? `${what} dry run completed successfully, ${files} artifacts and ${folders} folders would be ${done}`
    : `${what} completed successfully, ${files} artifacts and ${folders} folders were ${done}`;
  return { files, folders, message, landedAt: plan.toRoot };
}

/** Reads the source, checks every item and works out where each lands. Writes nothing. */
async function planTransfer(
  db: Database,
  artifacts: ArtifactsService,
  request: TransferRequest,
): Promise<Plan> {
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
    throw notFound(source, request.fromPath);
  }
  const toRoot = targetRoot(request.fromPath, request.toPath);
  const into = (path: string) =>
    path === request.fromPath || path.startsWith(`${request.fromPath}/`);
  if (source.id === target.id && (request.fromPath === '' || into(toRoot))) {
    throw new BadRequest(`Cannot ${request.kind} '${request.fromPath}' into itself`);
  }
  // Onto a folder above it, the item would land on its own rows (a move would delete them).
  if (source.id === target.id && request.fromPath.startsWith(`${toRoot}/`)) {
    throw new BadRequest(
      `Cannot ${request.kind} '${request.fromPath}' onto '${toRoot}', a folder that holds it`,
    );
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
  const replaced = await existingFiles(db, target.id, landingFiles(items, rename));
  checkEveryItem(request, { source, target, items, rename, replaced });
  if (request.refuseOverwrite && replaced.size > 0)
    throw request.refuseOverwrite([...replaced].sort().map((path) => `${target.key}/${path}`));
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
  return { source, target, items, toRoot, rename, user, replaced, indexes };
}

const notFound = (source: Repository, path: string) =>
  new NotFound(`Could not find '${source.key}/${path}'`);

const landingFiles = (items: Item[], rename: (path: string) => string) =>
  items.filter((i) => !i.folder).map((i) => rename(i.path));

/** What identifies an item's state: a plan is good while the items still read the same. */
const itemKey = (item: Item) => `${item.id} ${item.path} ${item.folder} ${item.sha256}`;

/**
 * The transfer's transaction: holds the source (against removal for a copy; for a move, as
 * a removal), reads it again and checks it is what was planned, then writes. The held source
 * root waits for writers below it, so what is read here includes all they committed.
 */
async function applyTransfer(
  tx: Tx,
  artifacts: ArtifactsService,
  request: TransferRequest,
  plan: Plan,
) {
  const { source, target } = plan;
  const path = request.fromPath;
  const moving = request.kind === 'move';
  if (path === '') {
    if (moving) await holdRepositoryForRemoval(tx, source.id);
  } else {
    const root = await (moving ? holdForRemoval : holdForCopy)(tx, source.id, path);
    if (!root) throw notFound(source, path);
  }
  const rootNow = path ? await artifacts.findNode(source.id, path, tx) : undefined;
  const belowNow = await artifacts.listBelow(
    source.id,
    path,
    { deep: true, withFolders: true },
    tx,
  );
  const now = [...(rootNow ? [rootNow] : []), ...belowNow];
  if (now.map(itemKey).join('\n') !== plan.items.map(itemKey).join('\n')) throw new PlanOutdated();
  const replacedNow = await existingFiles(tx, target.id, landingFiles(plan.items, plan.rename));
  if (request.refuseOverwrite && replacedNow.size > 0)
    throw request.refuseOverwrite([...replacedNow].sort().map((p) => `${target.key}/${p}`));
  // Overwriting was checked for the files found then; others found now are planned again.
  if ([...replacedNow].some((p) => !plan.replaced.has(p))) throw new PlanOutdated();

  const landing = { repositoryId: target.id, root: plan.toRoot };
  await request.landing?.before?.(tx, landing);
  await claimBlobs(tx, plan.items);
  const first = plan.items[0];
  if (first) {
    const { parentPath } = splitPath(plan.rename(first.path));
    if (parentPath) await placeFolder(tx, target.id, parentPath, plan.user);
  }
  for (const item of plan.items) {
    if (item.folder) await placeFolder(tx, target.id, plan.rename(item.path), plan.user);
    else await copyFile(tx, plan, item);
  }
  if (moving && plan.items.length > 0) {
    const nodeIds = plan.items.filter((item) => !item.folder).map((item) => item.id);
    await dropBuildsOf(tx, { nodeIds }, plan.user);
    await tx
      .deleteFrom('nodes')
      .where(
        'id',
        'in',
        plan.items.map((i) => i.id),
      )
      .execute();
  }
  await request.landing?.after?.(tx, landing);
  await emitEvents(tx, transferEventsOf(request, plan));
}

/**
 * What a transfer reports: a delete into the trash can is `artifact.deleted`; otherwise each
 * file is `moved` or `copied` (docs/webhooks.md).
 */
function transferEventsOf(request: TransferRequest, plan: Plan) {
  const files = plan.items.filter((item) => !item.folder);
  if (request.intoTrash) return fileEvents('deleted', plan.source.key, files, plan.user);
  const moved = files.map((item) => ({ ...item, newPath: plan.rename(item.path) }));
  const type = request.kind === 'move' ? 'moved' : 'copied';
  return transferEvents(type, plan.source.key, plan.target.key, moved, plan.user);
}

/**
 * Checks every item of a transfer through the caller's walker before anything is written:
 * Read on the source (and Delete for a move), Deploy where it lands, Delete/Overwrite where
 * that replaces a file. A delete into the trash can needs Delete on each item only.
 */
function checkEveryItem(
  request: TransferRequest,
  plan: Pick<Plan, 'source' | 'target' | 'items' | 'rename' | 'replaced'>,
) {
  const { walker } = request;
  if (walker.access.admin) return;
  const { source, target, items, rename, replaced } = plan;
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
      ...(!item.folder && replaced.has(landing.path)
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

/**
 * Touches the blobs the transfer's new rows refer to, holding their rows until commit: a
 * garbage collection running meanwhile, which no longer sees a reference from a source
 * deleted by someone else, leaves them alone (it skips locked rows and recent ones).
 */
async function claimBlobs(tx: Tx, items: Item[]) {
  const blobs = [...new Set(items.flatMap((i) => (i.sha256 ? [i.sha256] : [])))].sort();
  for (let start = 0; start < blobs.length; start += EXISTING_BATCH) {
    await tx
      .updateTable('blobs')
      .set({ touched_at: sql`now()` })
      .where('sha256', 'in', blobs.slice(start, start + EXISTING_BATCH))
      .execute();
  }
}

/** A new row for the same blob, with the original's properties. */
async function copyFile(tx: Tx, plan: Plan, item: Item) {
  const path = plan.rename(item.path);
  const content = {
    sha256: item.sha256!,
    size: Number(item.size),
    mimeType: item.mime_type ?? undefined,
  };
  // Only a file the plan saw there (and checked Delete/Overwrite on) may be replaced; one
  // that appeared since makes the transfer plan again.
  const { id } = await placeFile(tx, plan.target.id, path, content, plan.user, {
    refuseExistingFile: plan.replaced.has(path) ? undefined : () => new PlanOutdated(),
  });
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
  await plan.indexes.get(item.path)?.(tx, { id: Number(id), repositoryId: plan.target.id });
}
