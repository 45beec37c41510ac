import type { DepotConfig } from '../../config.ts';
import type { Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { createBlobStore } from './blob-store.ts';
import { createListings } from './listings.ts';
import { createLocalManifests } from './local-manifests.ts';
import { createManifestStore } from './manifest-store.ts';
import { imageRef, type RegistryAddress } from './names.ts';
import { createRegistryAccess } from './registry-access.ts';
import { createRemoteImages } from './remote-images.ts';
import { createRemoteListings } from './remote-listings.ts';
import { createRegistryTokens, parseScopes, type RegistryAccess } from './tokens.ts';
import { createUploadArea } from './uploads.ts';

const registries = new WeakMap<Services, DockerRegistry>();

/**
 * The registry of a Depot (its services): one for both addresses and the manifest fast path,
 * so that they share the verified tokens and the manifests kept in memory.
 */
export function dockerRegistryOf(deps: Parameters<typeof createDockerRegistry>[0]) {
  let registry = registries.get(deps.services);
  if (!registry) {
    registry = createDockerRegistry(deps);
    registries.set(deps.services, registry);
  }
  return registry;
}

/**
 * The Docker/OCI registry (docs/docker.md): blobs, manifests and tags, listings, and the
 * token endpoint, over the repositories' trees, the filestore and the access decider.
 */
export function createDockerRegistry(deps: {
  services: Services;
  filestore: Filestore;
  config: DepotConfig;
}) {
  const { services, filestore, config } = deps;
  const { db, artifacts, access, repositories } = services;
  const tokens = createRegistryTokens(services.secrets, config.docker.tokenSeconds, {
    currentUser: (name) => services.users.get(name).catch(() => undefined),
    changes: services.tableChanges,
  });
  const rules = createRegistryAccess({ access, artifacts });
  const uploads = createUploadArea(db, filestore.root, {
    maxBytes: config.docker.uploadMaxBytes,
    expirySeconds: config.docker.uploadExpirySeconds,
  });
  const remoteImages = createRemoteImages({ db, remote: services.remote, artifacts, filestore });
  const localManifests = createLocalManifests({ db, filestore, changes: services.tableChanges });
  const blobs = createBlobStore({ db, filestore, artifacts, rules, uploads, remoteImages });
  const manifests = createManifestStore({
    db,
    access,
    filestore,
    artifacts,
    rules,
    blobs,
    remoteImages,
    localManifests,
  });
  const remoteListings = createRemoteListings(services.remote);
  const listings = createListings({ db, access, repositories, rules, blobs, remoteListings });

  /**
   * The token endpoint's answer: a token for exactly the scopes asked for, each with only the
   * actions the principal may take now (none at all for a repository it may not use).
   */
  async function issueToken(
    principal: Principal,
    address: RegistryAddress,
    scopes: string[],
    service: string,
  ) {
    const access: RegistryAccess[] = [];
    for (const scope of parseScopes(scopes)) {
      if (scope.type === 'registry' && scope.name === 'catalog') {
        access.push({ type: 'registry', name: 'catalog', actions: ['*'] });
        continue;
      }
      if (scope.type !== 'repository') continue;
      let ref;
      try {
        ref = imageRef(address, scope.name);
      } catch {
        continue;
      }
      const actions = await rules.permittedActions(principal, ref, scope.actions);
      access.push({ type: 'repository', name: scope.name, actions });
    }
    const { token, issuedAt } = await tokens.issue(principal, access, service);
    return { token, access_token: token, expires_in: tokens.lifetimeSeconds, issued_at: issuedAt };
  }

  return {
    tokens,
    blobs,
    manifests,
    listings,
    uploads,
    issueToken,
    filestore,
    rules,
    localManifests,
  };
}

export type DockerRegistry = ReturnType<typeof createDockerRegistry>;
