import type { Database } from '../../db/database.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { BlobStore } from './blob-store.ts';
import { contentHex } from './digests.ts';
import { unknownManifest, type RepositoryRow } from './manifest-folders.ts';
import { parseManifest } from './manifests.ts';
import { isDigest, isTag, type ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import { findManifestWithType, manifestRow } from './queries.ts';
import type { RegistryAccessRules, RegistryCaller } from './registry-access.ts';
import type { PullContext, RemoteImages } from './remote-images.ts';

/** What a stored manifest is answered with. */
export interface StoredManifest {
  hex: string;
  digest: string;
  size: number;
  mediaType: string;
}

/** Pulls of manifests, by tag or digest, through a repository's read order. */
export function createManifestReads(deps: {
  db: Database;
  filestore: Filestore;
  rules: RegistryAccessRules;
  blobs: BlobStore;
  remoteImages: RemoteImages;
}) {
  const { db, filestore, rules, blobs, remoteImages } = deps;

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
        : findManifestWithType(db, source.id, ref.image, { tag: reference });
    // Upstreams are asked by sha256: a sha512 digest is known only for content stored here.
    const hex = await contentHex(db, reference);
    if (!hex) return undefined;
    return source.rclass === 'remote'
      ? remoteImages.manifest(source, ref.image, `sha256:${hex}`, context)
      : findManifestWithType(db, source.id, ref.image, { hex });
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
        // A local file comes with its media type; a remote's cached one is looked up.
        const known = 'media_type' in file ? file.media_type : undefined;
        const mediaType =
          known ??
          (await manifestRow(db, source.id, ref.image, `sha256:${file.sha256}`))?.media_type ??
          parseManifest(await filestore.readSmall(file.sha256), undefined).mediaType;
        // Asked by a digest, the answer names that digest (a sha512 one too).
        const digest = isTag(reference) ? `sha256:${file.sha256}` : reference;
        return { hex: file.sha256, digest, size: Number(file.size), mediaType };
      }
      throw unknownManifest(ref, reference);
    },
  };
}
