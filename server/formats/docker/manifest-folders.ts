import type { ItemWalker } from '../../modules/access-control/subtree-walk.ts';
import type { ArtifactsService, Tx } from '../../modules/artifacts/service.ts';
import { holdForRemoval } from '../../modules/artifacts/tree-writes.ts';
import { isTag, type ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import { blobFileName } from './queries.ts';

export type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

export const unknownManifest = (ref: ImageRef, reference: string) =>
  new RegistryError('MANIFEST_UNKNOWN', `Manifest ${reference} is unknown to ${ref.name}`, {
    reference,
  });

/** The folder a manifest is kept in: its tag's, or `sha256__<hex>` when pushed by digest. */
export const folderOf = (image: string, reference: string, hex: string) =>
  isTag(reference) ? `${image}/${reference}` : `${image}/${blobFileName(hex)}`;

/**
 * Removes a manifest's folder, held first as every removal is, once the caller's walker
 * allows Delete on everything in it (a file someone put there by other means, too).
 */
export function folderRemoval(artifacts: ArtifactsService) {
  return async function removeFolder(
    tx: Tx,
    target: RepositoryRow,
    folder: string,
    walker: ItemWalker,
  ) {
    if (!(await holdForRemoval(tx, target.id, folder))) return;
    await walker.requireSubtree('delete', target, folder, tx);
    await artifacts.deleteTree(target, folder, walker.principal.name, tx);
  };
}

export type RemoveFolder = ReturnType<typeof folderRemoval>;
