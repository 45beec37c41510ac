import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { RepositoriesService } from '../../modules/repositories/service.ts';
import type { BlobStore } from './blob-store.ts';
import { MEDIA_TYPES } from './manifests.ts';
import { clientName, parseDigest, type ImageRef, type RegistryAddress } from './names.ts';
import { RegistryError, RegistryUnauthorized } from './protocol-errors.ts';
import { catalogImages, imageTags, referrersOf } from './queries.ts';
import type { RegistryAccessRules, RegistryCaller } from './registry-access.ts';
import type { RemoteListings } from './remote-listings.ts';

/** A page of names in lexical order, after `last`, `n` at most (undefined: all of them). */
export interface Page {
  n?: number;
  last?: string;
}

/**
 * A page of the names; `upTo` is where an upstream's page ended while it had more: names past
 * it wait for the next page, which asks the upstream again from there.
 */
function paged(names: string[], page: Page, upTo?: string) {
  const sorted = [...new Set(names)].sort();
  const after = sorted.filter(
    (name) => (page.last === undefined || name > page.last) && (upTo === undefined || name <= upTo),
  );
  if (page.n === undefined) return { names: after, more: upTo !== undefined };
  return { names: after.slice(0, page.n), more: after.length > page.n || upTo !== undefined };
}

/** The smaller of two page ends, undefined standing for no end. */
const earlier = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined || a < b ? a : b;

/** Tags of an image, the registry's catalog, and the referrers of a manifest. */
export function createListings(deps: {
  db: Database;
  access: AccessService;
  repositories: RepositoriesService;
  rules: RegistryAccessRules;
  blobs: BlobStore;
  remoteListings: RemoteListings;
}) {
  const { db, access, repositories, rules, blobs, remoteListings } = deps;

  /** The images a repository's sources hold: their caches, and remote upstreams' catalogs. */
  async function imagesOf(repoKey: string, log: FastifyBaseLogger) {
    const sources = await blobs.readSources(await rules.dockerRepository(repoKey), '');
    const cached = await catalogImages(
      db,
      sources.map((source) => source.id),
    );
    const images = cached.map(({ image }) => image);
    for (const source of sources.filter((s) => s.rclass === 'remote'))
      images.push(...((await remoteListings.catalog(source, log))?.names ?? []));
    return images;
  }

  return {
    /**
     * An image's tags: what local members hold, what remote members' caches hold, and what
     * their upstreams list (the page asked for passed on); the cache alone when one is away.
     */
    async tags(ref: ImageRef, page: Page, caller: RegistryCaller, log: FastifyBaseLogger) {
      const repo = await rules.dockerRepository(ref.repoKey);
      await rules.authorize(caller, ref, 'pull');
      const tags: string[] = [];
      let upTo: string | undefined;
      for (const source of await blobs.readSources(repo, ref.image)) {
        tags.push(...(await imageTags(db, source.id, ref.image)));
        if (source.rclass !== 'remote') continue;
        const upstream = await remoteListings.tags(source, ref.image, page, log);
        tags.push(...(upstream?.names ?? []));
        if (upstream?.more && upstream.names.length > 0)
          upTo = earlier(upTo, upstream.names.at(-1));
      }
      if (tags.length === 0)
        throw new RegistryError('NAME_UNKNOWN', `${ref.name} holds no image`, { name: ref.name });
      return paged(tags, page, upTo);
    },

    /**
     * The images the caller may pull, as the address names them: every Docker repository
     * at `/v2/`, the address's own at `/artifactory/api/docker/<repoKey>/v2/`. A virtual
     * repository lists what its members hold under its own key.
     */
    async catalog(
      address: RegistryAddress,
      page: Page,
      caller: RegistryCaller,
      log: FastifyBaseLogger,
    ) {
      const catalogGranted =
        caller.granted === undefined ||
        caller.granted.some((entry) => entry.type === 'registry' && entry.name === 'catalog');
      if (!catalogGranted)
        throw new RegistryUnauthorized('Authentication is required', 'registry:catalog:*');
      const all = (await repositories.list({ packageType: 'docker' })).filter(
        (repo) => address.repoKey === undefined || repo.key === address.repoKey,
      );
      const decider = await access.forPrincipal(caller.principal);
      const names: string[] = [];
      for (const repo of all) {
        for (const image of await imagesOf(repo.key, log)) {
          if (decider.can('read', repo.key, image, 'folder'))
            names.push(clientName(address, repo.key, image));
        }
      }
      return paged(names, page);
    },

    /** The OCI 1.1 referrers of a manifest: an image index of the manifests naming it. */
    async referrers(
      ref: ImageRef,
      digest: string,
      artifactType: string | undefined,
      caller: RegistryCaller,
    ) {
      parseDigest(digest);
      const repo = await rules.dockerRepository(ref.repoKey);
      await rules.authorize(caller, ref, 'pull');
      const manifests = [];
      for (const source of await blobs.readSources(repo, ref.image)) {
        for (const row of await referrersOf(db, source.id, ref.image, digest)) {
          if (artifactType !== undefined && row.artifact_type !== artifactType) continue;
          manifests.push({
            mediaType: row.media_type,
            digest: row.digest,
            size: Number(row.size),
            ...(row.artifact_type ? { artifactType: row.artifact_type } : {}),
            ...(row.annotations ? { annotations: JSON.parse(row.annotations) as unknown } : {}),
          });
        }
      }
      return { schemaVersion: 2, mediaType: MEDIA_TYPES.ociIndex, manifests };
    },
  };
}
