import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { ItemWalker } from '../../modules/access-control/subtree-walk.ts';
import type { ArtifactsService, Tx } from '../../modules/artifacts/service.ts';
import { writeProperties } from '../../modules/artifacts/properties.ts';
import { holdForRemoval, placeFile } from '../../modules/artifacts/tree-writes.ts';
import type { Filestore, StagedBlob } from '../../storage/filestore.ts';
import { emitEvents } from '../../modules/events/outbox.ts';
import type { BlobStore } from './blob-store.ts';
import { platformsOf, tagDeletedEvents, tagEvent, type Platform } from './docker-events.ts';
import { dockerProperties } from './manifest-properties.ts';
import { indexDockerTag } from './package-index.ts';
import { manifestFileName, parseManifest, type ParsedManifest } from './manifests.ts';
import { contentHex, digestOfBytes } from './digests.ts';
import { isDigest, isTag, parseDigest, type ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import {
  blobFileName,
  deleteManifestRow,
  dropUploadedFiles,
  findImageBlob,
  findManifestFile,
  findTagManifest,
  foldersHoldingManifest,
  holdBlobs,
  manifestRow,
  preclaimBlob,
  upsertManifestRow,
} from './queries.ts';
import type { RegistryAccessRules, RegistryCaller } from './registry-access.ts';
import type { PullContext, RemoteImages } from './remote-images.ts';

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

/** What a stored manifest is answered with. */
export interface StoredManifest {
  hex: string;
  digest: string;
  size: number;
  mediaType: string;
}

const unknownManifest = (ref: ImageRef, reference: string) =>
  new RegistryError('MANIFEST_UNKNOWN', `Manifest ${reference} is unknown to ${ref.name}`, {
    reference,
  });

/** The folder a manifest is kept in: its tag's, or `sha256__<hex>` when pushed by digest. */
const folderOf = (image: string, reference: string, hex: string) =>
  isTag(reference) ? `${image}/${reference}` : `${image}/${blobFileName(hex)}`;

/**
 * Manifests and tags (docs/docker.md): a manifest pushed by tag is kept as
 * `<image>/<tag>/manifest.json` (an index as `list.manifest.json`) beside the files of its
 * config and layers, `sha256__<hex>`; one pushed by digest the same way in
 * `<image>/sha256__<hex>/`. Every blob it names must be in the image (`MANIFEST_BLOB_UNKNOWN`),
 * checked under the blobs' row locks in the transaction that writes it, so garbage
 * collection can never take a blob a manifest just came to need.
 */
export function createManifestStore(deps: {
  db: Database;
  access: AccessService;
  filestore: Filestore;
  artifacts: ArtifactsService;
  rules: RegistryAccessRules;
  blobs: BlobStore;
  remoteImages: RemoteImages;
}) {
  const { db, access, filestore, artifacts, rules, blobs, remoteImages } = deps;

  /** The manifest file a repository holds for a tag or digest (a remote fetches it). */
  async function findIn(
    source: RepositoryRow,
    ref: ImageRef,
    reference: string,
    context: PullContext,
  ) {
    if (isTag(reference))
      return source.rclass === 'remote'
        ? remoteImages.manifest(source, ref.image, reference, context)
        : findTagManifest(db, source.id, ref.image, reference);
    // Upstreams are asked by sha256: a sha512 digest is known only for content stored here.
    const hex = await contentHex(db, reference);
    if (!hex) return undefined;
    return source.rclass === 'remote'
      ? remoteImages.manifest(source, ref.image, `sha256:${hex}`, context)
      : findManifestFile(db, source.id, ref.image, hex);
  }

  /** The folders a delete removes: a tag's, or every one holding the manifest a digest names. */
  async function foldersNamed(target: RepositoryRow, ref: ImageRef, reference: string) {
    if (isTag(reference)) {
      const held = await findTagManifest(db, target.id, ref.image, reference);
      return { hex: undefined, folders: held ? [`${ref.image}/${reference}`] : [] };
    }
    const hex = await contentHex(db, reference);
    return { hex, folders: hex ? await foldersHoldingManifest(db, target.id, ref.image, hex) : [] };
  }

  /**
   * Removes a manifest's folder, held first as every removal is, once the caller's walker
   * allows Delete on everything in it (a file someone put there by other means, too).
   */
  async function removeFolder(tx: Tx, target: RepositoryRow, folder: string, walker: ItemWalker) {
    if (!(await holdForRemoval(tx, target.id, folder))) return;
    await walker.requireSubtree('delete', target, folder, tx);
    await artifacts.deleteTree(target, folder, walker.principal.name, tx);
  }

  /**
   * Refuses a manifest naming what the image does not hold; answers each blob's filestore
   * name (a sha512 digest is resolved to it) and size.
   */
  async function checkReferences(
    tx: Tx,
    target: RepositoryRow,
    ref: ImageRef,
    parsed: ParsedManifest,
  ) {
    const needed = [...parsed.blobs, ...parsed.manifests];
    const hexes = new Map<string, string | undefined>();
    for (const { digest } of needed) hexes.set(digest, await contentHex(tx, digest));
    const held = await holdBlobs(
      tx,
      [...hexes.values()].filter((hex) => hex !== undefined),
    );
    const found = new Map<string, { hex: string; size: number }>();
    for (const descriptor of needed) {
      const hex = hexes.get(descriptor.digest);
      const inImage =
        hex &&
        (parsed.blobs.includes(descriptor)
          ? await findImageBlob(tx, target.id, ref.image, hex)
          : await findManifestFile(tx, target.id, ref.image, hex));
      if (!hex || !held.has(hex) || !inImage)
        throw new RegistryError(
          'MANIFEST_BLOB_UNKNOWN',
          `The manifest names ${descriptor.digest}, which ${ref.name} does not hold`,
          { digest: descriptor.digest },
        );
      found.set(descriptor.digest, { hex, size: held.get(hex)! });
    }
    return found;
  }

  /** Writes the manifest's folder anew: the manifest file, its blobs' files, its row. */
  async function writeFolder(
    tx: Tx,
    target: RepositoryRow,
    ref: ImageRef,
    reference: string,
    staged: StagedBlob,
    parsed: ParsedManifest,
    walker: ItemWalker,
    user: string,
    platforms: Platform[],
  ) {
    const held = await checkReferences(tx, target, ref, parsed);
    const digest = `sha256:${staged.sha256}`;
    const blobFiles = new Map(
      parsed.blobs.map((d) => [held.get(d.digest)!.hex, held.get(d.digest)!]),
    );
    const folder = folderOf(ref.image, reference, staged.sha256);
    // A tag moving to another manifest loses its old image's files; the same push again keeps them.
    const current = isTag(reference)
      ? await findTagManifest(tx, target.id, ref.image, reference)
      : undefined;
    if (current && current.sha256 !== staged.sha256) await removeFolder(tx, target, folder, walker);
    const manifestPath = `${folder}/${manifestFileName(parsed.kind)}`;
    const node = await placeFile(
      tx,
      target.id,
      manifestPath,
      { sha256: staged.sha256, size: staged.size, mimeType: parsed.mediaType },
      user,
    );
    await writeProperties(
      tx,
      [Number(node.id)],
      dockerProperties(ref.image, reference, digest, parsed),
      user,
    );
    for (const { hex, size } of blobFiles.values())
      await placeFile(tx, target.id, `${folder}/${blobFileName(hex)}`, { sha256: hex, size }, user);
    await dropUploadedFiles(tx, target.id, ref.image, [...blobFiles.keys()]);
    await upsertManifestRow(tx, {
      repository_id: target.id,
      image: ref.image,
      digest,
      media_type: parsed.mediaType,
      artifact_type: parsed.artifactType ?? null,
      subject: parsed.subject?.digest ?? null,
      annotations: parsed.annotations ? JSON.stringify(parsed.annotations) : null,
      size: staged.size,
    });
    if (isTag(reference)) {
      await indexDockerTag(tx, {
        repositoryId: target.id,
        image: ref.image,
        tag: reference,
        nodeId: Number(node.id),
        digest,
        mediaType: parsed.mediaType,
        platforms,
        user,
      });
      await emitEvents(tx, [
        tagEvent(
          'pushed',
          { repoKey: target.key, image: ref.image, tag: reference },
          { path: manifestPath, sha256: staged.sha256, size: staged.size },
          platforms,
          user,
        ),
      ]);
    }
  }

  return {
    /** The manifest a tag or digest names, through the repository's read order. */
    async get(
      ref: ImageRef,
      reference: string,
      caller: RegistryCaller,
      context: PullContext,
    ): Promise<StoredManifest> {
      if (!isTag(reference) && !isDigest(reference))
        throw new RegistryError('MANIFEST_INVALID', `'${reference}' is neither a tag nor a digest`);
      const repo = await rules.dockerRepository(ref.repoKey);
      await rules.authorize(caller, ref, 'pull');
      for (const source of await blobs.readSources(repo, ref.image)) {
        const file = await findIn(source, ref, reference, context);
        if (!file?.sha256) continue;
        const row = await manifestRow(db, source.id, ref.image, `sha256:${file.sha256}`);
        const mediaType =
          row?.media_type ??
          parseManifest(await filestore.readSmall(file.sha256), undefined).mediaType;
        // Asked by a digest, the answer names that digest (a sha512 one too).
        const digest = isTag(reference) ? `sha256:${file.sha256}` : reference;
        return { hex: file.sha256, digest, size: Number(file.size), mediaType };
      }
      throw unknownManifest(ref, reference);
    },

    /**
     * Stores a pushed manifest. Pushed by digest, the bytes must have it (DIGEST_INVALID);
     * over a tag that names another manifest, the caller needs Delete there as well.
     */
    async put(
      ref: ImageRef,
      reference: string,
      bytes: Buffer,
      contentType: string | undefined,
      caller: RegistryCaller,
    ) {
      const hex = createHash('sha256').update(bytes).digest('hex');
      // Pushed by digest, the manifest is known by that digest (sha256 or sha512).
      const digest = digestOfBytes(bytes, isTag(reference) ? undefined : reference);
      if (!isTag(reference) && digest !== reference)
        throw new RegistryError(
          'DIGEST_INVALID',
          `The manifest's digest is ${digest}, not ${reference}`,
        );
      const parsed = parseManifest(bytes, contentType);
      const target = await blobs.pushTarget(ref, caller);
      if (isTag(reference)) {
        const current = await findTagManifest(db, target.id, ref.image, reference);
        if (current && current.sha256 !== hex)
          await rules.authorize(caller, ref, 'delete', target.key, `${ref.image}/${reference}`);
      }
      // What the folder held goes: the caller needs Delete on each of it (a tag's old image).
      const walker = await access.walker(caller.principal);
      const user = caller.principal.name;
      const platforms = isTag(reference) ? await platformsOf(bytes, parsed, filestore) : [];
      const staged = await filestore.stage(
        Readable.from([bytes]),
        digest.startsWith('sha512:') ? { sha512: parseDigest(digest).hex } : {},
      );
      let inPlace = false;
      try {
        await preclaimBlob(db, staged);
        await retryTransaction(() =>
          db.transaction().execute(async (tx) => {
            await holdBlobs(tx, [staged.sha256]);
            await writeFolder(tx, target, ref, reference, staged, parsed, walker, user, platforms);
            if (!inPlace) await filestore.commit(staged);
            inPlace = true;
          }),
        );
      } finally {
        await filestore.discard(staged);
      }
      return { digest, subject: parsed.subject?.digest };
    },

    /** Deletes a tag (its folder), or a manifest by digest (every folder holding it). */
    async delete(ref: ImageRef, reference: string, caller: RegistryCaller) {
      const repo = await rules.dockerRepository(ref.repoKey);
      // Deletes act where pushes land; they need Delete there, not Deploy.
      const target = await artifacts.deployTarget(repo.key).catch((error: Error) => {
        throw new RegistryError('DENIED', error.message);
      });
      // Whether a tag or digest exists is told only to a caller who may read the image.
      await rules.authorize(caller, ref, 'pull', target.key);
      const { hex, folders } = await foldersNamed(target, ref, reference);
      if (folders.length === 0) throw unknownManifest(ref, reference);
      for (const folder of folders)
        await rules.authorize(caller, ref, 'delete', target.key, folder);
      const walker = await access.walker(caller.principal);
      await retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          await emitEvents(
            tx,
            await tagDeletedEvents(
              tx,
              filestore,
              target,
              ref.image,
              folders,
              caller.principal.name,
            ),
          );
          for (const folder of folders) await removeFolder(tx, target, folder, walker);
          if (hex) await deleteManifestRow(tx, target.id, ref.image, `sha256:${hex}`);
        }),
      );
    },
  };
}
