import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { Conflict, DepotError } from '../../errors.ts';
import type { Filestore, StagedBlob } from '../../storage/filestore.ts';
import { assertProjectRoom } from '../projects/quota.ts';
import { ancestorsOf } from './paths.ts';
import { writeProperties } from './properties.ts';
import { placeFiles, placeFolders } from './tree-writes.ts';
import { fileEvents } from '../events/artifact-events.ts';
import { emitEvents } from '../events/outbox.ts';

type Tx = Transaction<DepotDatabase>;

/** A file of an exploded archive, staged in the filestore, not yet recorded. */
export interface StagedFile {
  path: string;
  staged: StagedBlob;
}

/** Where the files go and what each file's row says besides its blob. */
export interface StagedTarget {
  repo: { id: number; key: string; config: Record<string, unknown> };
  user: string;
  properties: Record<string, string[]>;
}

/**
 * Files a deploy that need not be atomic records per transaction. Each transaction is a
 * handful of statements whatever its size, and holds the embedded database (one session
 * for everybody) only for those: 25 files take some tens of milliseconds.
 */
export const FILES_PER_TRANSACTION = 25;
/** Rows one statement writes at most: a file's row costs some seven index entries. */
const ROWS_PER_STATEMENT = 100;
/** Renames (each with a directory fsync) done at once while blobs are put in place. */
const CONCURRENT_COMMITS = 8;

const chunksOf = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );

/**
 * Records the staged files and folders of an exploded archive (docs/archives.md). Nothing a
 * file needs is written until every path has been checked, so a clash keeps no blob. The
 * filestore's work (renames, fsyncs) happens between two short transactions, not inside
 * one: the blobs' rows are claimed first (which keeps garbage collection off them), then the
 * blobs put in place, then the files' rows written, a batch of statements at once.
 */
export function createStagedTreeStore(db: Database, filestore: Filestore) {
  /** Staged blobs already renamed into place: a retry must not move them again. */
  const committed = new WeakSet<StagedBlob>();

  /** Refuses the first path that clashes with what is stored, in deploy order. */
  async function assertPathsFree(
    executor: Database,
    repositoryId: number,
    files: StagedFile[],
    folders: string[],
  ) {
    const folderPaths = folders.flatMap((folder) => [...ancestorsOf(folder), folder]);
    const filePaths = files.map((file) => file.path);
    const ancestors = [...new Set(files.flatMap((file) => ancestorsOf(file.path)))];
    const mayNotBeFiles = [...new Set([...folderPaths, ...ancestors])];
    if (filePaths.length === 0 && mayNotBeFiles.length === 0) return;
    const { rows } = await sql<{ path: string; folder: boolean }>`
      select path, folder from nodes where repository_id = ${repositoryId}
        and ((folder and path = any(${filePaths}::text[]))
          or (not folder and path = any(${mayNotBeFiles}::text[])))`.execute(executor);
    if (rows.length === 0) return;
    const storedFiles = new Set(rows.filter((row) => !row.folder).map((row) => row.path));
    const storedFolders = new Set(rows.filter((row) => row.folder).map((row) => row.path));
    const clash = folderPaths.find((path) => storedFiles.has(path));
    if (clash) throw new Conflict(`'${clash}' is a file: it cannot hold a folder`);
    for (const { path } of files) {
      if (storedFolders.has(path))
        throw new Conflict(`A folder exists at '${path}': a file cannot replace it`);
      const file = ancestorsOf(path).find((ancestor) => storedFiles.has(ancestor));
      if (file) throw new Conflict(`'${file}' is a file: it cannot hold '${path}'`);
    }
  }

  /**
   * Inserts or touches the blobs' rows: garbage collection leaves a touched blob alone. Each
   * statement stands alone (a claim needs no company), so others' statements run between.
   */
  async function claimBlobs(files: StagedFile[]) {
    const blobs = new Map(files.map(({ staged }) => [staged.sha256, staged]));
    for (const chunk of chunksOf([...blobs.values()], ROWS_PER_STATEMENT))
      await db
        .insertInto('blobs')
        .values(
          chunk.map((blob) => ({
            sha256: blob.sha256,
            sha1: blob.sha1,
            md5: blob.md5 ?? null,
            size: blob.size,
          })),
        )
        .onConflict((c) =>
          c.column('sha256').doUpdateSet({
            md5: sql`coalesce(blobs.md5, excluded.md5)`,
            touched_at: sql`now()`,
          }),
        )
        .execute();
  }

  /** Puts staged blobs in place, a few at once (each rename is fsynced in its directory). */
  async function commitBlobs(files: StagedFile[]) {
    const pending = files.map((file) => file.staged).filter((staged) => !committed.has(staged));
    for (const chunk of chunksOf(pending, CONCURRENT_COMMITS))
      await Promise.all(
        chunk.map(async (staged) => {
          await filestore.commit(staged);
          committed.add(staged);
        }),
      );
  }

  /** The rows of the folders and files, inside the transaction that makes them visible. */
  async function writeRows(tx: Tx, target: StagedTarget, files: StagedFile[], folders: string[]) {
    const repositoryId = target.repo.id;
    const incoming = files.map((file) => ({
      path: file.path,
      size: file.staged.size,
      sha256: file.staged.sha256,
    }));
    await assertProjectRoom(tx, target.repo, incoming);
    await assertPathsFree(tx, repositoryId, files, folders);
    // The one decision every write of a path makes (tree-writes.ts), for many paths at once.
    if (folders.length > 0) await placeFolders(tx, repositoryId, folders, target.user);
    const placed = files.map(({ path, staged }) => ({ path, content: staged }));
    const nodeIds = await placeFiles(tx, repositoryId, placed, target.user);
    await writeProperties(tx, nodeIds, target.properties, target.user);
    const deployed = files.map(({ path, staged }) => ({ path, ...staged }));
    await emitEvents(tx, fileEvents('deployed', target.repo.key, deployed, target.user));
  }

  /**
   * Records files and folders together, all or nothing: checked first (a clash or the
   * project's quota keeps nothing), blobs claimed and put in place, then every row in one
   * transaction. Only a clash that appears between the check and that transaction (another
   * deploy to the same path) leaves blobs no file refers to; garbage collection removes them.
   */
  async function recordTogether(target: StagedTarget, files: StagedFile[], folders: string[]) {
    if (files.length === 0 && folders.length === 0) return;
    await assertPathsFree(db, target.repo.id, files, folders);
    const incoming = files.map((file) => ({
      path: file.path,
      size: file.staged.size,
      sha256: file.staged.sha256,
    }));
    await assertProjectRoom(db, target.repo, incoming);
    await claimBlobs(files);
    await commitBlobs(files);
    await db.transaction().execute((tx) => writeRows(tx, target, files, folders));
  }

  return {
    /** Every file and folder in one transaction: all or nothing (X-Explode-Archive-Atomic). */
    recordAtomically: (target: StagedTarget, files: StagedFile[], folders: string[]) =>
      recordTogether(target, files, folders),

    /**
     * The folders, then the files in archive order, FILES_PER_TRANSACTION to a transaction.
     * A batch refused (a clash, the project's quota) is done again file by file, so that the
     * files before the refused one stay, as separate deploys would have left them; the
     * refusal then ends the deploy.
     */
    async recordInBatches(target: StagedTarget, files: StagedFile[], folders: string[]) {
      await recordTogether(target, [], folders);
      for (const batch of chunksOf(files, FILES_PER_TRANSACTION)) {
        try {
          await recordTogether(target, batch, []);
        } catch (error) {
          if (!(error instanceof DepotError) || batch.length === 1) throw error;
          for (const file of batch) await recordTogether(target, [file], []);
        }
      }
    },
  };
}
