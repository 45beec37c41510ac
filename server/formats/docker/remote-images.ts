import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import { writeProperties } from '../../modules/artifacts/properties.ts';
import type { RemoteService } from '../../modules/remote/service.ts';
import { UpstreamRateLimited } from '../../modules/remote/upstream-error.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { platformsOf } from './docker-events.ts';
import { DOCKER_HUB_HINT } from './docker-hub.ts';
import { dockerProperties } from './manifest-properties.ts';
import { MEDIA_TYPES, parseManifest } from './manifests.ts';
import { isTag, sha256Hex } from './names.ts';
import { indexDockerTag } from './package-index.ts';
import { blobFileName, findImageBlob, findManifestFile, upsertManifestRow } from './queries.ts';

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

/** Who a pull is for, for the cache's records and the logs. */
export interface PullContext {
  user: string;
  log: FastifyBaseLogger;
  /** Whether the client may get a blob while it downloads (a GET of the whole blob). */
  streaming: boolean;
}

/** What a remote repository answers for a blob: the cached file, or its bytes as they arrive. */
export type RemoteBlob =
  | { kind: 'cached'; hex: string; size: number }
  | { kind: 'streaming'; hex: string; body: Readable; headers: Record<string, string> };

/** Every manifest media type Depot stores, for the upstream's content negotiation. */
const MANIFEST_ACCEPT = Object.values(MEDIA_TYPES).join(', ');

/**
 * The image's name upstream: a single name gets `library/`, as clients write Docker Hub's
 * official images (`alpine` is `library/alpine`); a name with a namespace is asked as it is.
 */
export const upstreamImage = (image: string) => (image.includes('/') ? image : `library/${image}`);

/**
 * The upstream's refusal for too many requests, with the anonymous-pulls hint when the
 * repository pulls without credentials: a public registry's limit is the likely cause.
 */
async function hintingRateLimits<T>(repo: RepositoryRow, pull: Promise<T>): Promise<T> {
  try {
    return await pull;
  } catch (error) {
    const config = repo.config as { username?: string };
    if (!(error instanceof UpstreamRateLimited) || config.username) throw error;
    throw new UpstreamRateLimited(`${error.message}. ${DOCKER_HUB_HINT}`, error.retryAfter);
  }
}

/** Where a remote repository caches a manifest: the tag's folder, or `sha256__<hex>/`. */
const manifestCachePath = (image: string, reference: string) =>
  `${image}/${isTag(reference) ? reference : blobFileName(sha256Hex(reference))}/manifest.json`;

/** Where a remote repository caches a blob pulled by digest. */
export const blobCachePath = (image: string, hex: string) => `${image}/_blobs/${blobFileName(hex)}`;

/**
 * Pulls through remote Docker repositories (docs/docker.md, "Remote repositories"), on the
 * remote repositories' cache (server/modules/remote/): a manifest or blob is fetched from the
 * upstream once, verified against its digest and cached in the tree as a local repository
 * lays it out; a tag's manifest is asked again after the retrieval cache period, and the
 * cached copy answers while the upstream is away.
 */
export function createRemoteImages(deps: {
  db: Database;
  remote: RemoteService;
  artifacts: ArtifactsService;
  filestore: Filestore;
}) {
  const { db, remote, artifacts, filestore } = deps;

  /** Gives a newly cached manifest what a pushed one has: properties, its row, its tag's version. */
  async function describe(
    repo: RepositoryRow,
    image: string,
    reference: string,
    node: { id: number | string; sha256: string | null; size: number | string | null },
    user: string,
  ) {
    const bytes = await filestore.readSmall(node.sha256!);
    const parsed = parseManifest(bytes, undefined);
    const digest = `sha256:${node.sha256}`;
    const platforms = isTag(reference) ? await platformsOf(bytes, parsed, filestore, db) : [];
    await retryTransaction(() =>
      db.transaction().execute(async (tx) => {
        await writeProperties(
          tx,
          [Number(node.id)],
          dockerProperties(image, reference, digest, parsed),
          user,
        );
        await upsertManifestRow(tx, {
          repository_id: repo.id,
          image,
          digest,
          media_type: parsed.mediaType,
          artifact_type: parsed.artifactType ?? null,
          subject: parsed.subject?.digest ?? null,
          annotations: parsed.annotations ? JSON.stringify(parsed.annotations) : null,
          size: Number(node.size),
        });
        if (isTag(reference))
          await indexDockerTag(tx, {
            repositoryId: repo.id,
            image,
            tag: reference,
            nodeId: Number(node.id),
            digest,
            mediaType: parsed.mediaType,
            platforms,
            user,
          });
      }),
    );
  }

  return {
    /**
     * The manifest file a remote repository has for a tag or digest, fetched and cached when
     * it has none (or, for a tag, when its copy is stale); undefined when the upstream has none.
     */
    async manifest(repo: RepositoryRow, image: string, reference: string, context: PullContext) {
      if (!isTag(reference)) {
        // A digest names one content for ever: any cached folder holding it answers.
        const held = await findManifestFile(db, repo.id, image, sha256Hex(reference));
        if (held?.sha256) return { sha256: held.sha256, size: Number(held.size) };
      }
      const path = manifestCachePath(image, reference);
      const cached = await artifacts.findNode(repo.id, path);
      const answer = await hintingRateLimits(
        repo,
        remote.resolve(repo, path, cached, {
          user: context.user,
          log: context.log,
          streaming: false,
          upstreamPath: `v2/${upstreamImage(image)}/manifests/${reference}`,
          headers: { accept: MANIFEST_ACCEPT },
          sha256: isTag(reference) ? undefined : sha256Hex(reference),
        }),
      );
      if (answer.kind !== 'cached' || !answer.node.sha256) return undefined;
      const node = answer.node;
      if (cached?.id !== node.id || cached.sha256 !== node.sha256)
        await describe(repo, image, reference, node, context.user);
      return { sha256: node.sha256!, size: Number(node.size) };
    },

    /** A blob of the image: cached, fetched from the upstream, or undefined when it has none. */
    async blob(
      repo: RepositoryRow,
      image: string,
      hex: string,
      context: PullContext,
    ): Promise<RemoteBlob | undefined> {
      const held = await findImageBlob(db, repo.id, image, hex);
      if (held) return { kind: 'cached', hex, size: Number(held.size) };
      const answer = await hintingRateLimits(
        repo,
        remote.resolve(repo, blobCachePath(image, hex), undefined, {
          user: context.user,
          log: context.log,
          streaming: context.streaming,
          upstreamPath: `v2/${upstreamImage(image)}/blobs/sha256:${hex}`,
          sha256: hex,
        }),
      );
      if (answer.kind === 'absent') return undefined;
      if (answer.kind === 'streaming')
        return { kind: 'streaming', hex, body: answer.body, headers: answer.headers };
      return { kind: 'cached', hex, size: Number(answer.node.size) };
    },
  };
}

export type RemoteImages = ReturnType<typeof createRemoteImages>;
