import { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { Conflict } from '../../errors.ts';
import type { ArtifactsService, IndexHook } from '../../modules/artifacts/service.ts';
import { holdForRemoval, placeFile } from '../../modules/artifacts/tree-writes.ts';
import type { Filestore, StagedBlob } from '../../storage/filestore.ts';
import { contentHex } from './digests.ts';
import { parseDigest, type ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import { blobFileName, findImageBlob, holdBlobs, imageBlobPaths } from './queries.ts';
import type { RegistryAccessRules, RegistryCaller } from './registry-access.ts';
import type { PullContext, RemoteBlob, RemoteImages } from './remote-images.ts';
import type { UploadArea, UploadSession } from './uploads.ts';

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

export const uploadPath = (image: string, hex: string) => `${image}/_uploads/${blobFileName(hex)}`;

/**
 * Blobs of images (docs/docker.md, "Storage"): read through a repository's read order, pushed
 * through an upload into the content-addressed filestore and recorded as
 * `<image>/_uploads/sha256__<hex>` until a manifest takes them into its folder.
 */
export function createBlobStore(deps: {
  db: Database;
  filestore: Filestore;
  artifacts: ArtifactsService;
  rules: RegistryAccessRules;
  uploads: UploadArea;
  remoteImages: RemoteImages;
}) {
  const { db, filestore, artifacts, rules, uploads, remoteImages } = deps;

  /** The Docker repositories a pull of the image reads, in order (a virtual's members). */
  async function readSources(repo: RepositoryRow, image: string) {
    const order = await artifacts.readOrder(repo, image);
    return order.filter(
      (source) =>
        source.package_type === 'docker' &&
        (source.rclass === 'local' || source.rclass === 'remote'),
    );
  }

  /** Where a push of the image lands: a local repository, or a virtual's deployment target. */
  async function pushTarget(ref: ImageRef, caller: RegistryCaller): Promise<RepositoryRow> {
    const repo = await rules.dockerRepository(ref.repoKey);
    const target = await artifacts.deployTarget(repo.key).catch((error: Error) => {
      throw new RegistryError('DENIED', error.message);
    });
    if (target.package_type !== 'docker')
      throw new RegistryError('DENIED', `'${target.key}' is not a Docker repository`);
    await rules.authorize(caller, ref, 'push', target.key);
    return target;
  }

  /**
   * Records a verified blob in the image's upload folder; `alsoInTransaction` runs in the
   * transaction that does (a completed upload's row goes there).
   */
  async function record(
    target: RepositoryRow,
    image: string,
    staged: StagedBlob,
    user: string,
    alsoInTransaction?: IndexHook,
  ) {
    await artifacts.deploy({
      repoKey: target.key,
      path: uploadPath(image, staged.sha256),
      content: Readable.from([]),
      staged,
      expected: {},
      byChecksum: false,
      properties: {},
      user,
      // An `_uploads` file is indexed by no format: nothing else to run there.
      index: alsoInTransaction,
    });
  }

  return {
    readSources,
    pushTarget,

    /**
     * A blob of the image the caller may pull: which file holds it and its size, or, from a
     * remote repository that had to fetch it, its bytes as they arrive.
     */
    async locate(
      ref: ImageRef,
      digest: string,
      caller: RegistryCaller,
      context: PullContext,
    ): Promise<RemoteBlob> {
      parseDigest(digest);
      const repo = await rules.dockerRepository(ref.repoKey);
      await rules.authorize(caller, ref, 'pull');
      // Upstreams are asked by sha256: a sha512 digest is known only for content stored here.
      const hex = await contentHex(db, digest);
      if (hex) {
        for (const source of await readSources(repo, ref.image)) {
          if (source.rclass === 'remote') {
            const found = await remoteImages.blob(source, ref.image, hex, context);
            if (found) return found;
            continue;
          }
          const file = await findImageBlob(db, source.id, ref.image, hex);
          if (file) return { kind: 'cached', hex, size: Number(file.size) };
        }
      }
      throw new RegistryError('BLOB_UNKNOWN', `Blob ${digest} is unknown to ${ref.name}`, {
        digest,
      });
    },

    /** A whole blob in one request (POST with `digest`): verified while it is stored. */
    async pushMonolithic(ref: ImageRef, digest: string, body: Readable, caller: RegistryCaller) {
      const { algorithm, hex } = parseDigest(digest);
      const target = await pushTarget(ref, caller);
      const staged = await filestore
        .stage(body.pipe(uploads.limiter()), { [algorithm]: hex })
        .catch((error: unknown) => {
          if (error instanceof Conflict)
            throw new RegistryError('DIGEST_INVALID', `The content does not have digest ${digest}`);
          throw error;
        });
      try {
        await record(target, ref.image, staged, caller.principal.name);
      } finally {
        await filestore.discard(staged);
      }
    },

    async startUpload(ref: ImageRef, caller: RegistryCaller): Promise<UploadSession> {
      const target = await pushTarget(ref, caller);
      return uploads.start(target.id, ref.image);
    },

    /** An upload of the image in progress, and the repository it lands in. */
    async findUpload(ref: ImageRef, id: string, caller: RegistryCaller) {
      const target = await pushTarget(ref, caller);
      return { target, session: await uploads.find(id, target.id, ref.image) };
    },

    /**
     * Ends an upload found by `findUpload` (whose last bytes are appended): the digest
     * checked, the blob recorded and the upload's row removed in one transaction.
     */
    async completeUpload(
      upload: { target: RepositoryRow; session: UploadSession },
      ref: ImageRef,
      digest: string,
      caller: RegistryCaller,
    ) {
      const expected = parseDigest(digest);
      const { target, session } = upload;
      const staged = await uploads.complete(session, expected);
      try {
        await record(target, ref.image, staged, caller.principal.name, (tx) =>
          uploads.forget(tx, session),
        );
      } finally {
        await filestore.discard(staged);
      }
    },

    /**
     * `DELETE` of a blob (docs/docker.md, "Deleting a blob"): removes the image's record of a
     * pushed blob no manifest holds yet (its `_uploads` file), for a caller with Delete there;
     * garbage collection then frees the bytes. A blob a manifest of the image names is
     * refused (`405 UNSUPPORTED`, naming the folder): deleting it would break that image, so
     * the manifest goes first and takes its blobs with it.
     */
    async delete(ref: ImageRef, digest: string, caller: RegistryCaller) {
      parseDigest(digest);
      const repo = await rules.dockerRepository(ref.repoKey);
      // Deletes act where pushes land, as a manifest's do.
      const target = await artifacts.deployTarget(repo.key).catch((error: Error) => {
        throw new RegistryError('DENIED', error.message);
      });
      // Whether the image holds the blob is told only to a caller who may read it.
      await rules.authorize(caller, ref, 'pull', target.key);
      const hex = await contentHex(db, digest);
      const unknown = () =>
        new RegistryError('BLOB_UNKNOWN', `Blob ${digest} is unknown to ${ref.name}`, { digest });
      if (!hex) throw unknown();
      const pushed = uploadPath(ref.image, hex);
      await rules.authorize(caller, ref, 'delete', target.key, pushed);
      await retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          // Held first, so that a manifest naming the blob cannot take it meanwhile.
          await holdForRemoval(tx, target.id, pushed);
          const paths = await imageBlobPaths(tx, target.id, ref.image, hex);
          const inUse = paths.find((path) => path !== pushed);
          if (inUse)
            throw new RegistryError(
              'UNSUPPORTED',
              `Blob ${digest} is part of the manifest in ${inUse}: delete the manifests that ` +
                'name it, and garbage collection frees the blob',
              { digest },
            );
          if (!paths.includes(pushed)) throw unknown();
          await artifacts.deleteTree(target, pushed, caller.principal.name, tx);
        }),
      );
    },

    /**
     * Cross-repository mount: the blob, found in an image the caller may pull, is recorded in
     * this one without its bytes moving. Answers false when it cannot be (the client then
     * uploads it).
     */
    async mount(ref: ImageRef, from: ImageRef, digest: string, caller: RegistryCaller) {
      parseDigest(digest);
      const target = await pushTarget(ref, caller);
      const hex = await contentHex(db, digest);
      if (!hex) return false;
      const source = await rules.dockerRepository(from.repoKey).catch(() => undefined);
      if (!source) return false;
      const mayPull = await rules.authorize(caller, from, 'pull').then(
        () => true,
        () => false,
      );
      if (!mayPull) return false;
      for (const holder of await readSources(source, from.image)) {
        const mounted = await retryTransaction(() =>
          db.transaction().execute(async (tx) => {
            const held = await holdBlobs(tx, [hex]);
            const file = await findImageBlob(tx, holder.id, from.image, hex);
            if (!held.has(hex) || !file) return false;
            await placeFile(
              tx,
              target.id,
              uploadPath(ref.image, hex),
              { sha256: hex, size: held.get(hex)! },
              caller.principal.name,
            );
            return true;
          }),
        );
        if (mounted) return true;
      }
      return false;
    },
  };
}

export type BlobStore = ReturnType<typeof createBlobStore>;
