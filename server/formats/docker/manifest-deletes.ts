import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import { emitEvents } from '../../modules/events/outbox.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { contentHex } from './digests.ts';
import { tagDeletedEvents } from './docker-events.ts';
import { unknownManifest, type RemoveFolder, type RepositoryRow } from './manifest-folders.ts';
import { isTag, type ImageRef } from './names.ts';
import { RegistryError } from './protocol-errors.ts';
import { deleteManifestRow, findTagManifest, foldersHoldingManifest } from './queries.ts';
import type { RegistryAccessRules, RegistryCaller } from './registry-access.ts';

/** Deletes of tags and manifests, where pushes land, each folder through the caller's walker. */
export function createManifestDeletes(deps: {
  db: Database;
  access: AccessService;
  filestore: Filestore;
  artifacts: ArtifactsService;
  rules: RegistryAccessRules;
  removeFolder: RemoveFolder;
}) {
  const { db, access, filestore, artifacts, rules, removeFolder } = deps;

  /** The folders a delete removes: a tag's, or every one holding the manifest a digest names. */
  async function foldersNamed(target: RepositoryRow, ref: ImageRef, reference: string) {
    if (isTag(reference)) {
      const held = await findTagManifest(db, target.id, ref.image, reference);
      return { hex: undefined, folders: held ? [`${ref.image}/${reference}`] : [] };
    }
    const hex = await contentHex(db, reference);
    return { hex, folders: hex ? await foldersHoldingManifest(db, target.id, ref.image, hex) : [] };
  }

  return {
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
