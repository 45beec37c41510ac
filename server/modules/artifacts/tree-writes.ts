import mime from 'mime';
import { sql, type Transaction } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import { Conflict } from '../../errors.ts';
import { ancestorsOf, folderRow, splitPath } from './paths.ts';

type Tx = Transaction<DepotDatabase>;

/**
 * The one way nodes are created or removed, inside the transaction that does it. Every path
 * that makes nodes (deploy, exploded bundles, remote cache fills, copy, move, restore, the
 * formats' own writes) goes through `placeFile` and `placeFolder`; every removal of a subtree
 * starts with `holdForRemoval`. Together they make "a file and a folder never share a path,
 * and nothing lives below a file" a decision the database takes, under any interleaving, on
 * PGlite and on PostgreSQL (docs/security.md, "Nothing acknowledged is lost"):
 *
 * - The `(repository_id, path)` unique index is the serialization point: two transactions
 *   writing one path wait on each other there, and the second sees what the first committed.
 * - A file's row is written `ON CONFLICT DO UPDATE ... WHERE folder = false`: no row back
 *   means a folder holds the path.
 * - Ancestor folders are made where missing and held `FOR KEY SHARE` until commit, outermost
 *   first; one that turns out to be a file refuses the write. A removal holds the root of
 *   what it removes `FOR UPDATE` first, which waits for every writer below it to commit and
 *   keeps new ones out until it has committed, so nothing is left behind without a parent.
 */

/** Attempts at holding a chain of folders that others keep creating and removing. */
const HOLD_ATTEMPTS = 5;

/** The columns of a file's row that a write sets (besides where it is). */
export interface FileContent {
  sha256: string;
  size: number;
  mimeType?: string;
}

/** Makes the folders of a chain (outermost first) where missing and holds them all. */
async function holdFolders(tx: Tx, repositoryId: number, chain: string[], user: string) {
  if (chain.length === 0) return [];
  for (let attempt = 1; ; attempt++) {
    const held = await tx
      .selectFrom('nodes')
      .select(['path', 'folder'])
      .where('repository_id', '=', repositoryId)
      .where('path', 'in', chain)
      // Locked in this order: outermost first, as every writer does, so writers never deadlock.
      .orderBy(({ fn }) => fn('length', ['path']))
      .forKeyShare()
      .execute();
    const file = held.find((row) => !row.folder);
    if (file) return [file.path];
    const missing = chain.filter((path) => !held.some((row) => row.path === path));
    if (missing.length === 0) return [];
    const made = await tx
      .insertInto('nodes')
      .values(missing.map((path) => folderRow(repositoryId, path, user)))
      .onConflict((c) => c.columns(['repository_id', 'path']).doNothing())
      .returning('path')
      .execute();
    // Another writer made (or removed) one of them meanwhile: look at the chain again.
    if (made.length === missing.length) return [];
    if (attempt >= HOLD_ATTEMPTS)
      throw new Conflict(`'${chain.at(-1)}' is changing under other writes: try again`);
  }
}

/** Makes a folder (and its ancestors) unless it exists; a file anywhere on the way is a 409. */
export async function placeFolder(
  tx: Tx,
  repositoryId: number,
  path: string,
  user: string,
): Promise<void> {
  const [file] = await holdFolders(tx, repositoryId, [...ancestorsOf(path), path], user);
  if (file !== undefined) throw new Conflict(`'${file}' is a file: it cannot hold a folder`);
}

/** How a write treats a file already at its path. */
export interface PlaceOptions {
  /**
   * The file is not to be replaced: the write refuses with this error instead, decided by the
   * database as a folder in the way is (a file that appeared since the caller last looked,
   * too). Without it, new content replaces the file's.
   */
  refuseExistingFile?: (path: string) => Error;
}

/**
 * Writes a file's row (a new one, or new content over an existing file), making and holding
 * its ancestor folders. A folder at the path, or a file above it, is a 409 and nothing is
 * written. Answers the row.
 */
export async function placeFile(
  tx: Tx,
  repositoryId: number,
  path: string,
  content: FileContent,
  user: string,
  options: PlaceOptions = {},
) {
  const [file] = await holdFolders(tx, repositoryId, ancestorsOf(path), user);
  if (file !== undefined) throw new Conflict(`'${file}' is a file: it cannot hold '${path}'`);
  const row = fileRow(repositoryId, path, content, user, new Date());
  // What new content changes in a file already there.
  const written = {
    sha256: row.sha256,
    size: row.size,
    mime_type: row.mime_type,
    modified_at: row.modified_at,
    modified_by: row.modified_by,
  };
  const { refuseExistingFile } = options;
  const node = await tx
    .insertInto('nodes')
    .values(row)
    .onConflict((c) =>
      refuseExistingFile
        ? c.columns(['repository_id', 'path']).doNothing()
        : c
            .columns(['repository_id', 'path'])
            .doUpdateSet(written)
            .where('nodes.folder', '=', false),
    )
    .returning(['id', 'created_at', 'created_by', 'modified_at', 'mime_type'])
    .executeTakeFirst();
  if (node) return node;
  // Seen by a statement of its own: what the conflicting writer committed.
  const there = await tx
    .selectFrom('nodes')
    .select('folder')
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path)
    .executeTakeFirst();
  if (refuseExistingFile && there?.folder === false) throw refuseExistingFile(path);
  throw new Conflict(`A folder exists at '${path}': a file cannot replace it`);
}

/** Rows one statement of a many-file write holds at most. */
const ROWS_PER_STATEMENT = 100;

const byDepth = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** The folders and every folder above them, outermost first. */
const chainOf = (folders: Iterable<string>) =>
  [...new Set([...folders].flatMap((path) => [...ancestorsOf(path), path]))].sort(byDepth);

/**
 * `placeFolder` for many folders at once (an exploded archive's): makes them and every folder
 * above them where missing, and holds them all; a file among them is a 409.
 */
export async function placeFolders(tx: Tx, repositoryId: number, paths: string[], user: string) {
  const [file] = await holdFolders(tx, repositoryId, chainOf(paths), user);
  if (file !== undefined) throw new Conflict(`'${file}' is a file: it cannot hold a folder`);
}

/**
 * `placeFile` for many files at once, by the same decision a statement at a time: their
 * folders made and held first, then each file's row written `ON CONFLICT DO UPDATE ... WHERE
 * folder = false`, so a folder at a path (or a file above one) is a 409. New content replaces
 * a file's. Answers the files' node ids.
 */
export async function placeFiles(
  tx: Tx,
  repositoryId: number,
  files: { path: string; content: FileContent }[],
  user: string,
): Promise<number[]> {
  const [file] = await holdFolders(
    tx,
    repositoryId,
    chainOf(files.flatMap(({ path }) => ancestorsOf(path).slice(-1))),
    user,
  );
  if (file !== undefined) {
    const below = files.find(({ path }) => path.startsWith(`${file}/`))!.path;
    throw new Conflict(`'${file}' is a file: it cannot hold '${below}'`);
  }
  const ids: number[] = [];
  const now = new Date();
  for (let start = 0; start < files.length; start += ROWS_PER_STATEMENT) {
    const chunk = files.slice(start, start + ROWS_PER_STATEMENT);
    const written = await tx
      .insertInto('nodes')
      .values(chunk.map(({ path, content }) => fileRow(repositoryId, path, content, user, now)))
      .onConflict((c) =>
        c
          .columns(['repository_id', 'path'])
          .doUpdateSet({
            sha256: sql`excluded.sha256`,
            size: sql`excluded.size`,
            mime_type: sql`excluded.mime_type`,
            modified_at: sql`excluded.modified_at`,
            modified_by: sql`excluded.modified_by`,
          })
          .where('nodes.folder', '=', false),
      )
      .returning(['id', 'path'])
      .execute();
    if (written.length < chunk.length) {
      const placed = new Set(written.map((row) => row.path));
      const held = chunk.find(({ path }) => !placed.has(path))!.path;
      throw new Conflict(`A folder exists at '${held}': a file cannot replace it`);
    }
    ids.push(...written.map((row) => Number(row.id)));
  }
  return ids;
}

/** A new file's row. */
export function fileRow(
  repositoryId: number,
  path: string,
  content: FileContent,
  user: string,
  now: Date,
) {
  const { parentPath, name } = splitPath(path);
  return {
    repository_id: repositoryId,
    path,
    parent_path: parentPath,
    name,
    folder: false,
    sha256: content.sha256,
    size: content.size,
    mime_type: content.mimeType ?? mime.getType(name) ?? 'application/octet-stream',
    created_at: now,
    created_by: user,
    modified_at: now,
    modified_by: user,
  };
}

/** Holds existing folders above a node, outermost first, as writers below them do. */
async function holdAncestors(tx: Tx, repositoryId: number, path: string) {
  const ancestors = ancestorsOf(path);
  if (ancestors.length === 0) return;
  await tx
    .selectFrom('nodes')
    .select('id')
    .where('repository_id', '=', repositoryId)
    .where('path', 'in', ancestors)
    .orderBy(({ fn }) => fn('length', ['path']))
    .forKeyShare()
    .execute();
}

/**
 * Holds the root of a subtree about to be removed (or moved away), and the folders above it
 * as a writer below them would: it waits for writers and removers inside the subtree to
 * commit, and keeps new ones out until this transaction ends. Run it first, in a transaction
 * at READ COMMITTED, so that what the transaction reads next includes everything those
 * others committed. Answers the node, or undefined when there is none.
 */
export function holdForRemoval(tx: Tx, repositoryId: number, path: string) {
  return holdRoot(tx, repositoryId, path, 'update');
}

/**
 * Holds the root of a subtree being copied (and the folders above it) against removal until
 * this transaction ends; other readers and writers below it go on. Answers the node.
 */
export function holdForCopy(tx: Tx, repositoryId: number, path: string) {
  return holdRoot(tx, repositoryId, path, 'key share');
}

/** The folders above a subtree's root held as a writer's, then the root with `lock`. */
async function holdRoot(tx: Tx, repositoryId: number, path: string, lock: 'update' | 'key share') {
  await holdAncestors(tx, repositoryId, path);
  const root = tx
    .selectFrom('nodes')
    .select(['id', 'folder'])
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path);
  return (lock === 'update' ? root.forUpdate() : root.forKeyShare()).executeTakeFirst();
}

/**
 * Holds every top-level node of a repository for removal: emptying or moving a whole
 * repository waits for writers inside it as `holdForRemoval` does for one subtree.
 */
export async function holdRepositoryForRemoval(tx: Tx, repositoryId: number) {
  await tx
    .selectFrom('nodes')
    .select('id')
    .where('repository_id', '=', repositoryId)
    .where('parent_path', '=', '')
    .orderBy('path')
    .forUpdate()
    .execute();
}
