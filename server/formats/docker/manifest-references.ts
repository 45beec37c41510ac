import type { Tx } from '../../modules/artifacts/service.ts';
import { contentHex } from './digests.ts';
import type { RepositoryRow } from './manifest-folders.ts';
import type { ParsedManifest } from './manifests.ts';
import type { ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import { findManifestFile, holdBlobs, imageBlobsHeld } from './queries.ts';

/**
 * Refuses a manifest naming what the image does not hold (`MANIFEST_BLOB_UNKNOWN`), checked
 * under the blobs' row locks in the transaction that writes it; answers each blob's filestore
 * name (a sha512 digest is resolved to it) and size, by the digest the manifest names.
 */
export async function checkReferences(
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
  const blobsInImage = await imageBlobsHeld(
    tx,
    target.id,
    ref.image,
    parsed.blobs.map(({ digest }) => hexes.get(digest)).filter((hex) => hex !== undefined),
  );
  const found = new Map<string, { hex: string; size: number }>();
  for (const descriptor of needed) {
    const hex = hexes.get(descriptor.digest);
    const inImage =
      hex &&
      (parsed.blobs.includes(descriptor)
        ? blobsInImage.has(hex)
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
