import { sql } from 'kysely';
import type { Tx } from '../../modules/artifacts/service.ts';
import type { Platform } from './docker-events.ts';

/** A tag as the package browser and package search list it: the image's version. */
export interface IndexedTag {
  repositoryId: number;
  image: string;
  tag: string;
  /** The tag's manifest file: the version's lead file (its folder holds the layers). */
  nodeId: number;
  digest: string;
  mediaType: string;
  platforms: Platform[];
  user: string;
}

/**
 * Indexes a tag as a version of the image's package (docs/docker.md, "Search and
 * packages"), in the transaction that writes its folder. The version row goes with the
 * manifest file (the index's foreign key cascades), so a deleted tag leaves the list.
 */
export async function indexDockerTag(tx: Tx, tag: IndexedTag): Promise<void> {
  const pkg = await tx
    .insertInto('packages')
    .values({ repository_id: tag.repositoryId, package_type: 'docker', name: tag.image })
    .onConflict((c) =>
      c.columns(['repository_id', 'name']).doUpdateSet({ modified_at: sql`now()` }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const manifest = JSON.stringify({
    digest: tag.digest,
    mediaType: tag.mediaType,
    platforms: tag.platforms,
  });
  await tx
    .insertInto('package_versions')
    .values({
      package_id: pkg.id,
      version: tag.tag,
      node_id: tag.nodeId,
      manifest,
      description: '',
      created_by: tag.user,
    })
    .onConflict((c) =>
      c.columns(['package_id', 'version']).doUpdateSet({ node_id: tag.nodeId, manifest }),
    )
    .execute();
}
