import type { Database } from '../../db/database.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { BlobStore } from './blob-store.ts';
import { createManifestDeletes } from './manifest-deletes.ts';
import { folderRemoval } from './manifest-folders.ts';
import { createManifestReads } from './manifest-reads.ts';
import { createManifestWrites } from './manifest-writes.ts';
import type { RegistryAccessRules } from './registry-access.ts';
import type { RemoteImages } from './remote-images.ts';
import type { LocalManifests } from './local-manifests.ts';

export type { StoredManifest } from './manifest-reads.ts';

/**
 * Manifests and tags (docs/docker.md): pulls through a repository's read order
 * (manifest-reads.ts), pushes that write a manifest's folder (manifest-writes.ts), every
 * blob it names checked to be in the image under the blobs' row locks in the transaction that
 * writes it (manifest-references.ts), so garbage collection can never take a blob a manifest
 * just came to need; and deletes of tags and manifests (manifest-deletes.ts).
 */
export function createManifestStore(deps: {
  db: Database;
  access: AccessService;
  filestore: Filestore;
  artifacts: ArtifactsService;
  rules: RegistryAccessRules;
  blobs: BlobStore;
  remoteImages: RemoteImages;
  localManifests: LocalManifests;
}) {
  const removeFolder = folderRemoval(deps.artifacts);
  const { get } = createManifestReads(deps);
  const { put } = createManifestWrites({ ...deps, removeFolder });
  const { delete: remove } = createManifestDeletes({ ...deps, removeFolder });
  return { get, put, delete: remove };
}
