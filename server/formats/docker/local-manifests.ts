import { createReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { parseManifest } from './manifests.ts';
import { findManifestWithType, manifestRow } from './queries.ts';

/** A manifest file of a local repository: its content, size and media type. */
export interface LocalManifest {
  hex: string;
  size: number;
  mediaType: string;
}

/** How a manifest is asked for: by tag, or by its content's sha256. */
export type ManifestAt = { tag: string } | { hex: string };

/**
 * Tables whose writes can change what a tag or digest of a local repository names: the
 * manifest files are nodes, their media types docker_manifests rows, and a repository
 * deleted and made again reuses its key. `nodes` and `repositories` notify every node of a
 * cluster on commit (migration 0008); docker_manifests is written only with nodes.
 */
const MANIFEST_TABLES = ['nodes', 'docker_manifests', 'repositories'];

/**
 * The manifest a local repository holds for a tag or digest, kept in memory until any write
 * to the tables above (on any node of a cluster), so that a pull's first call, repeated by
 * every client of an image, costs no query. Misses are kept too: a push that makes them
 * answerable writes nodes.
 */
export function createLocalManifests(deps: {
  db: Database;
  filestore: Filestore;
  changes: TableChanges;
}) {
  const { db, filestore, changes } = deps;
  const cache = createReadCache<string, LocalManifest | undefined>({
    ttlMs: 60_000,
    maxEntries: 10_000,
  });
  changes.onChange(MANIFEST_TABLES, () => cache.clear());
  const keyOf = (repositoryId: number, image: string, at: ManifestAt) =>
    `${repositoryId}\n${image}\n${'tag' in at ? `t:${at.tag}` : `d:${at.hex}`}`;

  async function load(repositoryId: number, image: string, at: ManifestAt) {
    const file = await findManifestWithType(db, repositoryId, image, at);
    if (!file?.sha256) return undefined;
    // A manifest pushed here has its row; the file alone (an import) is read for its type.
    const mediaType =
      file.media_type ??
      (await manifestRow(db, repositoryId, image, `sha256:${file.sha256}`))?.media_type ??
      parseManifest(await filestore.readSmall(file.sha256), undefined).mediaType;
    return { hex: file.sha256, size: Number(file.size), mediaType };
  }

  return {
    find(repositoryId: number, image: string, at: ManifestAt) {
      return cache.get(keyOf(repositoryId, image, at), () => load(repositoryId, image, at));
    },
    /** What `find` would answer from memory right now, if it has it. */
    peek(repositoryId: number, image: string, at: ManifestAt) {
      return cache.peek(keyOf(repositoryId, image, at));
    },
  };
}

export type LocalManifests = ReturnType<typeof createLocalManifests>;
