import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { ItemWalker } from '../../modules/access-control/subtree-walk.ts';
import type { ArtifactsService, Tx } from '../../modules/artifacts/service.ts';
import { readProperties, writeProperties } from '../../modules/artifacts/properties.ts';
import { holdForRemoval, placeFile } from '../../modules/artifacts/tree-writes.ts';
import { emitEvents, type OutboxEvent } from '../../modules/events/outbox.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { platformsOf, tagEvent } from './docker-events.ts';
import { parseManifest } from './manifests.ts';
import { contentHex } from './digests.ts';
import { isTag } from './names.ts';
import { indexDockerTag } from './package-index.ts';
import { filesInFolder } from './promotion-queries.ts';
import {
  blobFileName,
  findManifestFile,
  findTagManifest,
  foldersHoldingManifest,
  holdBlobs,
  imageTags,
  manifestRow,
  upsertManifestRow,
} from './queries.ts';

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

/** `POST /artifactory/api/docker/<repoKey>/v2/promote`'s body, as Artifactory takes it. */
export interface PromotionRequest {
  targetRepo: string;
  dockerRepository: string;
  /** One tag; without it, every tag of the image. */
  tag?: string;
  /** The tag it gets in the target (one tag only). */
  targetTag?: string;
  /** Copy instead of move. */
  copy?: boolean;
}

interface Copying {
  tx: Tx;
  source: RepositoryRow;
  target: RepositoryRow;
  image: string;
  walker: ItemWalker;
  user: string;
}

/**
 * Docker promotion (docs/docker.md, "Promotion"): copies or moves tags of an image from one
 * Docker repository to another, with the manifests an index names, and reports each tag as
 * `docker.promoted` in the transaction that does it. Every file read, written or removed is
 * checked through the caller's item walker.
 */
export function createDockerPromotion(deps: {
  db: Database;
  access: AccessService;
  artifacts: ArtifactsService;
  filestore: Filestore;
}) {
  const { db, access, artifacts, filestore } = deps;

  async function dockerRepository(key: string, resolve: (key: string) => Promise<RepositoryRow>) {
    const repo = await resolve(key).catch(() => undefined);
    if (!repo || repo.package_type !== 'docker')
      throw new NotFound(`Docker repository '${key}' was not found`);
    return repo;
  }

  /**
   * Copies the files of one folder into the target, the manifest's row and properties too;
   * answers the copied manifest file's node and media type.
   */
  async function copyFolder(c: Copying, from: string, to: string, reference: string) {
    let copied = { nodeId: 0, mediaType: '' };
    await c.walker.requireSubtree('read', c.source, from, c.tx);
    const files = await filesInFolder(c.tx, c.source.id, from);
    const held = await holdBlobs(
      c.tx,
      files.flatMap((file) => file.sha256 ?? []),
    );
    for (const file of files) {
      if (!file.sha256 || !held.has(file.sha256))
        throw new NotFound(`'${file.path}' has no content to promote`);
      const path = `${to}/${file.name}`;
      if (!c.walker.access.can('deploy', c.target.key, path, 'file'))
        throw access.denied(c.walker.principal, 'deploy', c.target.key, path);
      const node = await placeFile(
        c.tx,
        c.target.id,
        path,
        { sha256: file.sha256, size: Number(file.size), mimeType: file.mime_type ?? undefined },
        c.user,
      );
      if (file.name.endsWith('manifest.json')) {
        const properties = await readProperties(c.tx, Number(file.id));
        await writeProperties(
          c.tx,
          [Number(node.id)],
          { ...properties, 'docker.manifest': [reference] },
          c.user,
        );
        const row = await manifestRow(c.tx, c.source.id, c.image, `sha256:${file.sha256}`);
        if (row) await upsertManifestRow(c.tx, { ...row, repository_id: c.target.id });
        copied = { nodeId: Number(node.id), mediaType: row?.media_type ?? file.mime_type ?? '' };
      }
    }
    return copied;
  }

  /** The platform images an index names that the target lacks, from their digest folders. */
  async function copyIndexEntries(c: Copying, bytes: Buffer) {
    for (const entry of parseManifest(bytes, undefined).manifests) {
      const hex = await contentHex(c.tx, entry.digest);
      if (!hex) throw new NotFound(`The index names ${entry.digest}, which is not stored`);
      if (await findManifestFile(c.tx, c.target.id, c.image, hex)) continue;
      const [folder] = await foldersHoldingManifest(c.tx, c.source.id, c.image, hex);
      if (!folder) throw new NotFound(`The index names ${entry.digest}, which is not stored`);
      await copyFolder(c, folder, `${c.image}/${blobFileName(hex)}`, entry.digest);
    }
  }

  async function removeFolder(c: Copying, repo: RepositoryRow, folder: string) {
    if (!(await holdForRemoval(c.tx, repo.id, folder))) return;
    await c.walker.requireSubtree('delete', repo, folder, c.tx);
    await artifacts.deleteTree(repo, folder, c.user, c.tx);
  }

  async function promoteTag(c: Copying, tag: string, targetTag: string, move: boolean) {
    const manifest = await findTagManifest(c.tx, c.source.id, c.image, tag);
    if (!manifest?.sha256)
      throw new NotFound(`Tag '${tag}' of '${c.image}' was not found in '${c.source.key}'`);
    const from = `${c.image}/${tag}`;
    const to = `${c.image}/${targetTag}`;
    const there = await findTagManifest(c.tx, c.target.id, c.image, targetTag);
    // A tag moved onto another manifest loses its old files, as a push over it does.
    if (there && there.sha256 !== manifest.sha256) await removeFolder(c, c.target, to);
    const bytes = await filestore.readSmall(manifest.sha256);
    await copyIndexEntries(c, bytes);
    const copied = await copyFolder(c, from, to, targetTag);
    if (move) await removeFolder(c, c.source, from);
    const platforms = await platformsOf(bytes, parseManifest(bytes, undefined), filestore, c.tx);
    await indexDockerTag(c.tx, {
      repositoryId: c.target.id,
      image: c.image,
      tag: targetTag,
      nodeId: copied.nodeId,
      digest: `sha256:${manifest.sha256}`,
      mediaType: copied.mediaType,
      platforms,
      user: c.user,
    });
    return tagEvent(
      'promoted',
      { repoKey: c.source.key, image: c.image, tag },
      manifest,
      platforms,
      c.user,
      { repoKey: c.target.key, tag: targetTag },
    );
  }

  return {
    async promote(sourceKey: string, request: PromotionRequest, principal: Principal) {
      const source = await dockerRepository(sourceKey, artifacts.repository);
      if (source.rclass !== 'local')
        throw new BadRequest(`Docker images are promoted from a local repository`, 'repoKey');
      const target = await dockerRepository(request.targetRepo, artifacts.deployTarget);
      const image = request.dockerRepository.replace(/^\/+|\/+$/g, '');
      if (request.targetTag !== undefined && request.tag === undefined)
        throw new BadRequest('A target tag needs the tag it renames', 'targetTag');
      for (const tag of [request.tag, request.targetTag])
        if (tag !== undefined && !isTag(tag)) throw new BadRequest(`'${tag}' is not a valid tag`);
      const walker = await access.walker(principal);
      // Whether the image or a tag exists is told only to a caller who may read the image.
      if (!walker.access.can('read', source.key, image, 'folder'))
        throw access.denied(principal, 'read', source.key, image, false);
      const tags = request.tag ? [request.tag] : await imageTags(db, source.id, image);
      if (tags.length === 0)
        throw new NotFound(`Image '${image}' was not found in '${source.key}'`);
      if (target.id === source.id && (request.targetTag ?? request.tag) === request.tag)
        throw new BadRequest('An image cannot be promoted onto itself', 'targetRepo');
      return retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          const c: Copying = { tx, source, target, image, walker, user: principal.name };
          const events: OutboxEvent[] = [];
          for (const tag of tags)
            events.push(await promoteTag(c, tag, request.targetTag ?? tag, !request.copy));
          await emitEvents(tx, events);
          return { target: target.key, tags: events.length };
        }),
      );
    },
  };
}

export type DockerPromotion = ReturnType<typeof createDockerPromotion>;
