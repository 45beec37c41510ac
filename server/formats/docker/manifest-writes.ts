import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { ItemWalker } from '../../modules/access-control/subtree-walk.ts';
import type { Tx } from '../../modules/artifacts/service.ts';
import { writeProperties } from '../../modules/artifacts/properties.ts';
import { placeFile, placeFiles } from '../../modules/artifacts/tree-writes.ts';
import { emitEvents } from '../../modules/events/outbox.ts';
import type { Filestore, StagedBlob } from '../../storage/filestore.ts';
import type { BlobStore } from './blob-store.ts';
import { digestOfBytes } from './digests.ts';
import { platformsOf, tagEvent, type Platform } from './docker-events.ts';
import { folderOf, type RemoveFolder, type RepositoryRow } from './manifest-folders.ts';
import { dockerProperties } from './manifest-properties.ts';
import { checkReferences } from './manifest-references.ts';
import { manifestFileName, parseManifest, type ParsedManifest } from './manifests.ts';
import { isTag, parseDigest, type ImageRef } from './names.ts';
import { indexDockerTag } from './package-index.ts';
import { RegistryError } from './protocol-errors.ts';
import {
  blobFileName,
  dropUploadedFiles,
  findTagManifest,
  holdBlobs,
  preclaimBlob,
  upsertManifestRow,
} from './queries.ts';
import type { RegistryAccessRules, RegistryCaller } from './registry-access.ts';

/**
 * Pushes of manifests: a manifest pushed by tag is kept as `<image>/<tag>/manifest.json` (an
 * index as `list.manifest.json`) beside the files of its config and layers, `sha256__<hex>`;
 * one pushed by digest the same way in `<image>/sha256__<hex>/`.
 */
export function createManifestWrites(deps: {
  db: Database;
  access: AccessService;
  filestore: Filestore;
  rules: RegistryAccessRules;
  blobs: BlobStore;
  removeFolder: RemoveFolder;
}) {
  const { db, access, filestore, rules, blobs, removeFolder } = deps;

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
    // One statement for the config and every layer: a manifest names tens of them.
    if (blobFiles.size > 0)
      await placeFiles(
        tx,
        target.id,
        [...blobFiles.values()].map(({ hex, size }) => ({
          path: `${folder}/${blobFileName(hex)}`,
          content: { sha256: hex, size },
        })),
        user,
      );
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
      const platforms = isTag(reference) ? await platformsOf(bytes, parsed, filestore, db) : [];
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
  };
}
