import type { Database } from '../../db/database.ts';
import type { Tx } from '../../modules/artifacts/service.ts';
import type { OutboxEvent } from '../../modules/events/outbox.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { parseManifest, type ParsedManifest } from './manifests.ts';
import { contentHex } from './digests.ts';
import { isTag } from './names.ts';
import { findTagManifest } from './queries.ts';

/** A platform as JFrog's docker events list them. */
export interface Platform {
  architecture: string;
  os: string;
}

/** The manifest file of a tag, as an event describes it. */
export interface TagManifestFile {
  path: string;
  sha256: string | null;
  size: number | string | bigint;
}

const IMAGE_CONFIG_TYPES: ReadonlySet<string> = new Set([
  'application/vnd.docker.container.image.v1+json',
  'application/vnd.oci.image.config.v1+json',
]);

function platformOf(value: unknown): Platform | undefined {
  const p = value as Partial<Platform> | null;
  if (typeof p !== 'object' || p === null) return undefined;
  if (typeof p.architecture !== 'string' || typeof p.os !== 'string') return undefined;
  return { architecture: p.architecture, os: p.os };
}

/**
 * The platforms a manifest is for: an index's entries' `platform`, or an image's config's
 * `architecture` and `os`, the config found by its digest, `sha256:` or `sha512:` (through
 * `db`, which knows the content stored under a SHA-512). An artifact (a signature, an SBOM)
 * is for none. Reading them never fails a push: a config that cannot be read counts as no
 * platform.
 */
export async function platformsOf(
  bytes: Buffer,
  parsed: ParsedManifest,
  filestore: Filestore,
  db: Database | Tx,
): Promise<Platform[]> {
  try {
    if (parsed.kind === 'index') {
      const doc = JSON.parse(bytes.toString('utf8')) as { manifests?: { platform?: unknown }[] };
      return (doc.manifests ?? []).flatMap((entry) => platformOf(entry.platform) ?? []);
    }
    const config = parsed.blobs[0];
    if (!config || !IMAGE_CONFIG_TYPES.has(config.mediaType) || !filestore.isSmall(config.size))
      return [];
    const hex = await contentHex(db, config.digest);
    if (!hex) return [];
    const content = await filestore.readSmall(hex);
    const platform = platformOf(JSON.parse(content.toString('utf8')));
    return platform ? [platform] : [];
  } catch {
    return [];
  }
}

/**
 * `docker.pushed`, `docker.deleted` or `docker.promoted` for one tag of an image, in JFrog's
 * documented shape: the tag's manifest file's fields, `image_name`, `tag` and `platforms`.
 * A promotion is reported in the repository it came from, naming where it went.
 */
export function tagEvent(
  eventType: 'pushed' | 'deleted' | 'promoted',
  at: { repoKey: string; image: string; tag: string },
  file: TagManifestFile,
  platforms: Platform[],
  user: string,
  promotedTo?: { repoKey: string; tag: string },
): OutboxEvent {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  return {
    domain: 'docker',
    eventType,
    data: {
      repo_key: at.repoKey,
      path: file.path,
      name,
      sha256: file.sha256,
      size: Number(file.size),
      image_name: at.image,
      tag: at.tag,
      platforms,
      ...(promotedTo
        ? {
            target_repo_key: promotedTo.repoKey,
            target_tag: promotedTo.tag,
          }
        : {}),
    },
    user,
    repoKey: at.repoKey,
    path: file.path,
    ...(promotedTo ? { targetRepoKey: promotedTo.repoKey } : {}),
  };
}

/** `docker.deleted` for each tag folder among `folders` (digest folders are no tag). */
export async function tagDeletedEvents(
  tx: Tx,
  filestore: Filestore,
  target: { id: number; key: string },
  image: string,
  folders: string[],
  user: string,
): Promise<OutboxEvent[]> {
  const events = [];
  for (const folder of folders) {
    const tag = folder.slice(image.length + 1);
    if (!isTag(tag)) continue;
    const file = await findTagManifest(tx, target.id, image, tag);
    if (!file?.sha256) continue;
    const bytes = await filestore.readSmall(file.sha256);
    const platforms = await platformsOf(bytes, parseManifest(bytes, undefined), filestore, tx);
    events.push(tagEvent('deleted', { repoKey: target.key, image, tag }, file, platforms, user));
  }
  return events;
}
