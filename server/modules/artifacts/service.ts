import type { Readable } from 'node:stream';
import { sql, type Transaction } from 'kysely';
import { createReadCache, deepFreeze } from '../../cache/read-cache.ts';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../errors.ts';
import type { Checksums, Filestore, StagedBlob, StoredBlob } from '../../storage/filestore.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { assertProjectRoom, inProject } from '../projects/quota.ts';
import { acceptsPath } from './ant-pattern.ts';
import { ancestorsOf, escapeLike } from './paths.ts';
import { holdForRemoval, placeFile } from './tree-writes.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { writeProperties } from './properties.ts';
import { createStagedTreeStore, type StagedFile } from './staged-tree.ts';
import { checksumHolders } from './queries.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import { CACHE_SUFFIX } from '../access-control/permission-target.ts';
import { fileEvents } from '../events/artifact-events.ts';
import { emitEvents, wantedEvents } from '../events/outbox.ts';
import { dropBuildsOf } from '../builds/dropped-builds.ts';
import { NODE_WITH_CHECKSUMS } from './node-columns.ts';
import { deployInOneStatement } from './deploy-statement.ts';

/** Holders of some content read per query by a checksum deploy. */
const HOLDERS_PAGE = 500;

/**
 * A body declared this small is read before its path is checked, the check then made by the
 * blob's preclaim (one statement less); a larger one is refused, when its path is taken,
 * before a byte of it is read.
 */
const CHECK_PATH_EARLY_ABOVE = 64 * 1024;

export type Tx = Transaction<DepotDatabase>;

/**
 * Writes a package format's index rows for a file, inside the transaction that records the
 * file: the file and its index land together or not at all (server/formats/).
 */
export type IndexHook = (tx: Tx, file: { id: number; repositoryId: number }) => Promise<void>;

/** Reads a file about to be deployed and answers the hook that indexes it, if its format does. */
export type PrepareIndex = (
  repo: Pick<RepositoryRow, 'id' | 'key' | 'package_type' | 'config'>,
  path: string,
  file: { blob: StoredBlob; diskPath: string; user: string },
) => Promise<IndexHook | undefined>;
type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;

export interface DeployRequest {
  repoKey: string;
  path: string;
  content: Readable;
  /** Checksums the client sent to verify (X-Checksum-*). */
  expected: Partial<Checksums>;
  /** X-Checksum-Deploy: the content is already stored; no body is read. */
  byChecksum: boolean;
  /**
   * The caller's item walker: a checksum deploy reuses content only from an item it may
   * read. Without one, no stored content is reused.
   */
  walker?: Pick<ItemWalker, 'firstReadable'>;
  properties: Record<string, string[]>;
  user: string;
  /** The format's index rows for this file (a native publish); otherwise the format's indexer decides. */
  index?: IndexHook;
  /** The content, already staged (a multipart upload's file part); `content` is then unread. */
  staged?: StagedBlob;
  /** The body's size as the client declared it (Content-Length), if it did. */
  declaredLength?: number;
  /**
   * The caller may not replace a file there (no Delete/Overwrite): a file at the path,
   * there before or written meanwhile, refuses the deploy with this error.
   */
  refuseExistingFile?: (path: string) => Error;
}

export type { StagedFile } from './staged-tree.ts';

/** What a file's row needs besides its blob. */
type FileRecord = Pick<DeployRequest, 'path' | 'properties' | 'user' | 'refuseExistingFile'>;

export function createArtifactsService(
  db: Database,
  filestore: Filestore,
  repositories: RepositoriesService,
  changes?: TableChanges,
  prepareIndex?: PrepareIndex,
) {
  const stagedTrees = createStagedTreeStore(db, filestore);

  /** Rows answered for `{remote}-cache`: the remote's cache alone, never its upstream. */
  const cacheViews = new WeakSet<RepositoryRow>();

  /**
   * A repository by key. `{remote}-cache` names a remote repository's cache, as storage
   * summary and Artifactory's REST do: the remote's row under that key, which reads from the
   * cache only (`isCacheView`). A repository really named so comes first.
   */
  async function repository(key: string): Promise<RepositoryRow> {
    const row = (await repositories.findRow(key)) ?? (await cacheView(key));
    if (!row) throw new NotFound(`Repository '${key}' could not be found.`);
    return row;
  }

  async function cacheView(key: string): Promise<RepositoryRow | undefined> {
    if (!key.toLowerCase().endsWith(CACHE_SUFFIX)) return undefined;
    const owner = await repositories.findRow(key.slice(0, -CACHE_SUFFIX.length));
    if (owner?.rclass !== 'remote') return undefined;
    const view = { ...owner, key: `${owner.key}${CACHE_SUFFIX}` };
    cacheViews.add(view);
    return view;
  }

  /** Where a PUT to a repository lands: locals themselves, virtuals their deployment target. */
  async function deployTarget(key: string): Promise<RepositoryRow> {
    const repo = await repository(key);
    if (repo.rclass === 'local') return repo;
    if (repo.rclass === 'remote')
      throw new BadRequest(
        `Repository '${repo.key}' is a remote repository: deploy to a local one`,
      );
    const target = (repo.config as { defaultDeploymentRepo?: string }).defaultDeploymentRepo;
    if (!target)
      throw new BadRequest(`Virtual repository '${repo.key}' has no default deployment repository`);
    return repository(target);
  }

  /** The content of a deploy: staged from the body, or found by checksum. */
  async function contentFor(
    request: DeployRequest,
  ): Promise<{ blob: StoredBlob; staged?: StagedBlob }> {
    if (request.staged) return { blob: request.staged, staged: request.staged };
    if (!request.byChecksum) {
      const staged = await filestore.stage(request.content, request.expected);
      return { blob: staged, staged };
    }
    const { sha256, sha1 } = request.expected;
    if (!sha256 && !sha1)
      throw new BadRequest('A checksum deploy needs X-Checksum-Sha256 or X-Checksum-Sha1');
    // Only content the caller may read in some item is reused; anything else answers as
    // unknown, so the answer tells nothing of content stored out of its reach.
    const holder = await request.walker?.firstReadable(holdersOf({ sha256, sha1 }));
    if (!holder) throw checksumUnknown(sha256 ?? sha1!);
    const { md5, size } = holder;
    return {
      blob: { sha256: holder.sha256, sha1: holder.sha1, md5: md5 ?? undefined, size: Number(size) },
    };
  }

  /** The files holding some content, a page at a time. */
  async function* holdersOf(checksum: { sha256?: string; sha1?: string }) {
    for (let after = 0; ;) {
      const page = await checksumHolders(db, checksum, after, HOLDERS_PAGE);
      if (page.length > 0) yield page;
      if (page.length < HOLDERS_PAGE) return;
      after = page.at(-1)!.id;
    }
  }

  /**
   * Records a file: a staged blob's row is claimed in a commit of its own (which keeps
   * garbage collection off it for its grace period) and the blob put in place (linked and
   * fsynced in its folder), then one transaction claims the row again (its lock holds
   * collection off until commit) and writes the rows that refer to it. A plain deploy does
   * that transaction's work as one statement (`storeInOneStatement`), and falls back to the
   * transaction when the statement meets anything else. The filestore's work
   * stays outside the transaction, as an exploded archive's does (staged-tree.ts): on the
   * embedded database a transaction holds the one session everybody shares, and a folder's
   * fsync inside it made every other deploy wait some 5-60 ms for each one (docs/webhooks.md,
   * "Deploy rate"). The path and the project's quota are checked before the blob is put in
   * place; a refusal by the transaction (only a concurrent write makes one) or a crash before
   * its commit leaves a blob nothing refers to, which garbage collection removes, file and
   * all, after its grace period. A collection with a grace period shorter than the deploy
   * (0 in tests) may remove the blob before the transaction claims its row: the claim then
   * makes the row anew, and the blob is put back from the staged file, still there.
   */
  async function storeFile(
    repo: Pick<RepositoryRow, 'id' | 'key' | 'config'>,
    record: FileRecord,
    blob: StoredBlob,
    staged?: StagedBlob,
    index?: IndexHook,
    checkPath = false,
  ) {
    const incoming = [{ path: record.path, size: blob.size, sha256: blob.sha256 }];
    try {
      if (staged) {
        // A deploy past its project's quota keeps no blob; the transaction decides again.
        await assertProjectRoom(db, repo, incoming);
        await preclaimBlob(
          db,
          staged,
          checkPath ? { repositoryId: repo.id, path: record.path } : undefined,
        );
        await filestore.place(staged);
        const placed = await storeInOneStatement(repo, record, staged, index);
        if (placed) return placed;
      }
      return await retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          await assertProjectRoom(tx, repo, incoming);
          const collected = await claimBlob(tx, blob);
          if (staged && collected) await filestore.place(staged);
          if (!staged && !(await filestore.has(blob.sha256))) throw checksumUnknown(blob.sha256);
          const node = await recordFile(tx, repo, record, blob);
          await index?.(tx, { id: Number(node.id), repositoryId: repo.id });
          return node;
        }),
      );
    } finally {
      await filestore.discard(staged);
    }
  }

  /**
   * The common deploy (a new or replaced file in existing folders, nothing but its row and
   * event to write) as one statement (deploy-statement.ts); undefined when the deploy needs
   * more, or something is in its way: `storeFile`'s transaction then does it all.
   */
  async function storeInOneStatement(
    repo: Pick<RepositoryRow, 'id' | 'key' | 'config'>,
    record: FileRecord,
    blob: StoredBlob,
    index?: IndexHook,
  ) {
    if (index || inProject(repo) || Object.keys(record.properties).length > 0) return undefined;
    const events = wantedEvents(
      db,
      fileEvents('deployed', repo.key, [{ ...blob, path: record.path }], record.user),
    );
    return retryTransaction(() =>
      deployInOneStatement(db, {
        repositoryId: repo.id,
        path: record.path,
        blob,
        user: record.user,
        keepExistingFile: record.refuseExistingFile !== undefined,
        events,
      }),
    );
  }

  function findNode(repositoryId: number, path: string, executor: Database = db) {
    return executor
      .selectFrom('nodes')
      .leftJoin('blobs', 'blobs.sha256', 'nodes.sha256')
      .select(NODE_WITH_CHECKSUMS)
      .where('nodes.repository_id', '=', repositoryId)
      .where('nodes.path', '=', path)
      .executeTakeFirst();
  }

  // Downloads read the same few rows over and over (metadata files, popular artifacts).
  const downloadNodes = createReadCache<string, Awaited<ReturnType<typeof findNode>>>({
    ttlMs: 5000,
    maxEntries: 50000,
  });
  changes?.onChange(['nodes', 'blobs'], downloadNodes.clear);

  return {
    repository,
    deployTarget,

    /**
     * Refuses (409) a path a file could not be written at now: a folder holds it, or a file
     * holds a folder above it. An early answer only; the write itself decides (placeFile).
     */
    assertPathFree: (repositoryId: number, path: string) => assertPathFree(db, repositoryId, path),

    /** Whether a repository row is a remote's cache named `{remote}-cache`: no upstream. */
    isCacheView: (repo: RepositoryRow) => cacheViews.has(repo),

    /**
     * Records the staged files of an exploded archive (and its folders). Atomic: one
     * transaction, all or nothing. Otherwise in batches of files, in archive order, and the
     * first refusal stops the rest (the files before it stay, as separate PUTs would).
     */
    async deployStaged(
      repo: Pick<RepositoryRow, 'id' | 'key' | 'config'>,
      tree: { files: StagedFile[]; folders: string[] },
      record: Omit<FileRecord, 'path'>,
      atomic: boolean,
    ) {
      const target = { repo, user: record.user, properties: record.properties };
      try {
        if (atomic) await stagedTrees.recordAtomically(target, tree.files, tree.folders);
        else await stagedTrees.recordInBatches(target, tree.files, tree.folders);
      } finally {
        for (const file of tree.files) await filestore.discard(file.staged);
      }
    },

    async deploy(request: DeployRequest) {
      const repo = await deployTarget(request.repoKey);
      if (request.path === '') throw new BadRequest('A file needs a path inside the repository');
      if (!acceptsPath(repo.includes_pattern, repo.excludes_pattern, request.path)) {
        throw new Forbidden(
          `The path '${request.path}' is not allowed by the include and exclude patterns of repository '${repo.key}'`,
        );
      }
      // An early refusal before a body is read; the write itself decides (placeFile). A small
      // body's path is checked by its blob's preclaim instead.
      const smallBody =
        !request.staged &&
        !request.byChecksum &&
        (request.declaredLength ?? 0) > 0 &&
        request.declaredLength! <= CHECK_PATH_EARLY_ABOVE;
      if (!smallBody) await assertPathFree(db, repo.id, request.path);
      const { blob, staged } = await contentFor(request);
      try {
        const index =
          request.index ??
          (await prepareIndex?.(repo, request.path, {
            blob,
            diskPath: staged?.tmpPath ?? filestore.pathOf(blob.sha256),
            user: request.user,
          }));
        const node = await storeFile(repo, request, blob, staged, index, smallBody);
        return { repo, node, blob };
      } finally {
        await filestore.discard(staged);
      }
    },

    /**
     * The local repositories a read looks in, in order: a local one itself; a virtual one
     * its members, depth first, each once, filtered by the virtual's include/exclude rules.
     */
    async readOrder(
      repo: RepositoryRow,
      path: string,
      seen = new Set<number>(),
    ): Promise<RepositoryRow[]> {
      if (seen.has(repo.id)) return [];
      seen.add(repo.id);
      if (repo.rclass === 'local' || repo.rclass === 'remote') return [repo];
      if (
        repo.rclass !== 'virtual' ||
        (path && !acceptsPath(repo.includes_pattern, repo.excludes_pattern, path))
      ) {
        return [];
      }
      const members = (repo.config as { repositories?: string[] }).repositories ?? [];
      const order: RepositoryRow[] = [];
      for (const key of members) {
        const member = await repositories.findRow(key);
        if (member) order.push(...(await this.readOrder(member, path, seen)));
      }
      return order;
    },

    /** The node at a path in one repository, or undefined (read through `executor`, a transaction). */
    findNode,

    /**
     * The index hook for a stored blob arriving at a path by copy, move or restore: the
     * target's format indexes it as if it had been deployed there.
     */
    async indexStored(
      repo: Pick<RepositoryRow, 'id' | 'key' | 'package_type' | 'config'>,
      path: string,
      blob: StoredBlob,
      user: string,
    ): Promise<IndexHook | undefined> {
      return prepareIndex?.(repo, path, { blob, diskPath: filestore.pathOf(blob.sha256), user });
    },

    /** Whether a path is a folder: the root always is; a virtual asks its members in order. */
    async isFolder(repoKey: string, path: string): Promise<boolean> {
      const repo = await repository(repoKey); // a 404 for an unknown repository
      if (path === '') return true;
      for (const source of await this.readOrder(repo, path)) {
        const node = await findNode(source.id, path);
        if (node) return node.folder;
      }
      return false;
    },

    /**
     * `findNode` for the download path, answered from memory when the same file was asked
     * for within the last few seconds. Any write to nodes or blobs empties the cache at once
     * on this node, and on every node of a cluster when it commits (server/db/table-changes.ts);
     * code that reads in order to write uses `findNode`.
     */
    findNodeForDownload(repositoryId: number, path: string) {
      if (!changes) return findNode(repositoryId, path);
      return downloadNodes.get(`${repositoryId}/${path}`, async () =>
        deepFreeze(await findNode(repositoryId, path)),
      );
    },

    /** What `findNodeForDownload` would answer from memory right now, if it has it. */
    peekNodeForDownload(repositoryId: number, path: string) {
      return downloadNodes.peek(`${repositoryId}/${path}`);
    },

    /**
     * Records a file fetched from a remote repository's upstream into its cache. A project's
     * quota counts cached files but never refuses one: a build's read must not fail on it.
     */
    async recordCachedFile(
      repo: Pick<RepositoryRow, 'id' | 'key'>,
      path: string,
      staged: StagedBlob,
      user: string,
    ) {
      const quotaFree = { id: repo.id, key: repo.key, config: {} };
      await storeFile(quotaFree, { path, properties: {}, user }, staged, staged);
    },

    /** Children of a folder ('' for the root), folders first, in name order. */
    async children(repositoryId: number, parentPath: string, limit: number) {
      return db
        .selectFrom('nodes')
        .select(['name', 'folder', 'size', 'modified_at'])
        .where('repository_id', '=', repositoryId)
        .where('parent_path', '=', parentPath)
        .orderBy('folder', 'desc')
        .orderBy('name')
        .limit(limit)
        .execute();
    },

    /**
     * Everything below a folder ('' for the root): direct children, or the whole subtree
     * when `deep`. Files only unless `withFolders`. In path order.
     */
    async listBelow(
      repositoryId: number,
      path: string,
      options: { deep: boolean; withFolders: boolean },
      executor: Database = db,
    ) {
      return executor
        .selectFrom('nodes')
        .leftJoin('blobs', 'blobs.sha256', 'nodes.sha256')
        .select([
          'nodes.id',
          'nodes.path',
          'nodes.folder',
          'nodes.size',
          'nodes.modified_at',
          'nodes.mime_type',
          'blobs.sha1',
          'nodes.sha256',
        ])
        .where('nodes.repository_id', '=', repositoryId)
        .$if(options.deep && path !== '', (q) =>
          q.where('nodes.path', 'like', `${escapeLike(path)}/%`),
        )
        .$if(!options.deep, (q) => q.where('nodes.parent_path', '=', path))
        .$if(!options.withFolders, (q) => q.where('nodes.folder', '=', false))
        .orderBy('nodes.path')
        .execute();
    },

    /** MD5 of a blob, computed from disk and remembered the first time it is asked for. */
    async md5(sha256: string): Promise<string> {
      const row = await db
        .selectFrom('blobs')
        .select('md5')
        .where('sha256', '=', sha256)
        .executeTakeFirst();
      if (row?.md5) return row.md5;
      const md5 = await filestore.md5Of(sha256);
      await db.updateTable('blobs').set({ md5 }).where('sha256', '=', sha256).execute();
      return md5;
    },

    /**
     * Deletes a node and everything below it, inside the caller's transaction, and reports
     * each file gone as `artifact.deleted`; answers how many rows went.
     */
    async deleteTree(
      repo: Pick<RepositoryRow, 'id' | 'key'>,
      path: string,
      user: string,
      tx: Tx,
    ): Promise<number> {
      await dropBuildsOf(tx, { repositoryKey: repo.key, path }, user);
      const deleted = await tx
        .deleteFrom('nodes')
        .where('repository_id', '=', repo.id)
        .where((eb) => eb.or([eb('path', '=', path), eb('path', 'like', `${escapeLike(path)}/%`)]))
        .returning(['path', 'folder', 'sha256', 'size'])
        .execute();
      const files = deleted.filter((row) => !row.folder);
      await emitEvents(tx, fileEvents('deleted', repo.key, files, user));
      return deleted.length;
    },

    /** Deletes a node and everything below it, held first as every removal is (tree-writes.ts). */
    async removeTree(repo: Pick<RepositoryRow, 'id' | 'key'>, path: string, user: string) {
      return retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          await holdForRemoval(tx, repo.id, path);
          return this.deleteTree(repo, path, user, tx);
        }),
      );
    },

    /**
     * Deletes a node and everything below it for good, once the caller's walker allows
     * Delete on every one of them. The node is held first (holdForRemoval): writers below it
     * finish before the walk, and none start until the delete commits, so what goes is what
     * was checked.
     */
    async delete(repoKey: string, path: string, walker: ItemWalker): Promise<void> {
      const repo = await repository(repoKey);
      if (path === '')
        throw new BadRequest(
          'Deleting a whole repository is done through /artifactory/api/repositories',
        );
      await retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          if (!(await holdForRemoval(tx, repo.id, path)))
            throw new NotFound(`Could not locate artifact '${repo.key}:${path}'.`);
          await walker.requireSubtree('delete', repo, path, tx);
          return this.deleteTree(repo, path, walker.principal.name, tx);
        }),
      );
    },
  };
}

/** A file cannot replace a folder, and no ancestor of it may be a file. */
async function assertPathFree(db: Database | Tx, repositoryId: number, path: string) {
  refuseClash(await clashingNode(db, repositoryId, path).executeTakeFirst(), path);
}

/**
 * The node that keeps a file from being written at `path`: a folder at the path itself, or
 * a file at one of its ancestors. `assertPathFree` runs it alone, `preclaimBlob` inside its
 * statement.
 */
function clashingNode(db: Database | Tx, repositoryId: number, path: string) {
  const ancestors = ancestorsOf(path);
  return db
    .selectFrom('nodes')
    .select(['path', 'folder'])
    .where('repository_id', '=', repositoryId)
    .where((eb) =>
      eb.or([
        eb.and([eb('path', '=', path), eb('folder', '=', true)]),
        eb.and([eb('path', 'in', ancestors.length ? ancestors : ['']), eb('folder', '=', false)]),
      ]),
    )
    .limit(1);
}

/** The refusal of a path a file could not be written at (`assertPathFree`'s answer). */
function refuseClash(clash: { path: string; folder: boolean } | undefined, path: string) {
  if (clash?.folder) throw new Conflict(`A folder exists at '${path}': a file cannot replace it`);
  if (clash) throw new Conflict(`'${clash.path}' is a file: it cannot hold '${path}'`);
}

const checksumUnknown = (checksum: string) =>
  new NotFound(`Checksum deploy failed: no stored content has checksum ${checksum}`);

/**
 * Inserts or touches a blob's row; the row lock keeps garbage collection away until commit.
 * Answers whether the row had to be made: for a blob whose row was claimed before, that
 * means garbage collection removed it, and its file, in between.
 */
async function claimBlob(tx: Tx, blob: StoredBlob): Promise<boolean> {
  const row = await tx
    .insertInto('blobs')
    .values({
      sha256: blob.sha256,
      sha1: blob.sha1,
      md5: blob.md5 ?? null,
      sha512: blob.sha512 ?? null,
      size: blob.size,
    })
    .onConflict((c) =>
      c.column('sha256').doUpdateSet({
        md5: sql`coalesce(blobs.md5, excluded.md5)`,
        sha512: sql`coalesce(blobs.sha512, excluded.sha512)`,
        touched_at: sql`now()`,
      }),
    )
    // A row this statement inserted has no xmax; one it updated has its own.
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .executeTakeFirstOrThrow();
  return row.inserted;
}

/**
 * Claims blobs about to be put in place, in a commit of their own before the transaction
 * that records them: a blob file on disk then always has a row, and one that nothing came
 * to refer to (a crash before the recording commit) is garbage collection's to remove.
 */
async function preclaimBlobs(db: Database, blobs: StoredBlob[]) {
  // One content twice in a batch would make one statement touch its row twice.
  const unique = [...new Map(blobs.map((blob) => [blob.sha256, blob])).values()];
  if (unique.length === 0) return;
  await db
    .insertInto('blobs')
    .values(
      unique.map((blob) => ({
        sha256: blob.sha256,
        sha1: blob.sha1,
        md5: blob.md5 ?? null,
        sha512: blob.sha512 ?? null,
        size: blob.size,
      })),
    )
    .onConflict((c) => c.column('sha256').doUpdateSet({ touched_at: sql`now()` }))
    .execute();
}

/**
 * `preclaimBlobs` for one blob; with `at`, in the same statement, `assertPathFree`'s check of
 * where it goes: a path taken refuses the deploy and claims nothing.
 */
async function preclaimBlob(
  db: Database,
  blob: StoredBlob,
  at?: { repositoryId: number; path: string },
) {
  if (!at) return preclaimBlobs(db, [blob]);
  const clash = clashingNode(db, at.repositoryId, at.path);
  const { rows } = await sql<{ path: string; folder: boolean }>`with clash as ${clash},
    claimed as (
      insert into blobs (sha256, sha1, md5, sha512, size)
      select ${blob.sha256}::text, ${blob.sha1}::text, ${blob.md5 ?? null}::text,
        ${blob.sha512 ?? null}::text, ${blob.size}::bigint
      where not exists (select from clash)
      on conflict (sha256) do update set touched_at = now())
    select path, folder from clash`.execute(db);
  refuseClash(rows[0], at.path);
}

/** A file's row and properties, and its `artifact.deployed` event (docs/webhooks.md). */
async function recordFile(
  tx: Tx,
  repo: Pick<RepositoryRow, 'id' | 'key'>,
  request: FileRecord,
  blob: StoredBlob,
) {
  const node = await placeFile(tx, repo.id, request.path, blob, request.user, {
    refuseExistingFile: request.refuseExistingFile,
  });
  await writeProperties(tx, [node.id], request.properties, request.user);
  await emitEvents(
    tx,
    fileEvents('deployed', repo.key, [{ ...blob, path: request.path }], request.user),
  );
  return node;
}

export type ArtifactsService = ReturnType<typeof createArtifactsService>;
