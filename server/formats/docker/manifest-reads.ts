import type { Database } from '../../db/database.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { BlobStore } from './blob-store.ts';
import { contentHex } from './digests.ts';
import { unknownManifest, type RepositoryRow } from './manifest-folders.ts';
import { parseManifest } from './manifests.ts';
import { isDigest, isTag, type ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import { manifestRow } from './queries.ts';
import type { LocalManifest, LocalManifests } from './local-manifests.ts';
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
  localManifests: LocalManifests;
}) {
  const { db, filestore, rules, blobs, remoteImages, localManifests } = deps;

  /** The manifest a repository holds for a tag or digest (a remote fetches it). */
  async function findIn(
    source: RepositoryRow,
    ref: ImageRef,
    reference: string,
    context: PullContext,
  ): Promise<LocalManifest | undefined> {
    // Upstreams are asked by sha256: a sha512 digest is known only for content stored here.
    const hex = isTag(reference) ? undefined : await contentHex(db, reference);
    if (!isTag(reference) && !hex) return undefined;
    if (source.rclass !== 'remote')
      return localManifests.find(source.id, ref.image, hex ? { hex } : { tag: reference });
    const file = await remoteImages.manifest(
      source,
      ref.image,
      hex ? `sha256:${hex}` : reference,
      context,
    );
    if (!file?.sha256) return undefined;
    // A remote's cached manifest has its row; else its file is read for the type.
    const mediaType =
      (await manifestRow(db, source.id, ref.image, `sha256:${file.sha256}`))?.media_type ??
      parseManifest(await filestore.readSmall(file.sha256), undefined).mediaType;
    return { hex: file.sha256, size: Number(file.size), mediaType };
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
        const found = await findIn(source, ref, reference, context);
        if (!found) continue;
        // Asked by a digest, the answer names that digest (a sha512 one too).
        const digest = isTag(reference) ? `sha256:${found.hex}` : reference;
        return { ...found, digest };
      }
      throw unknownManifest(ref, reference);
    },
  };
}
