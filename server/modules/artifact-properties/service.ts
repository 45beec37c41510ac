import type { Database } from '../../db/database.ts';
import { BadRequest } from '../../errors.ts';
import { readProperties, readRootProperties } from '../artifacts/properties.ts';
import {
  deleteCheckedProperties,
  setCheckedProperties,
  type CheckedScope,
} from '../artifacts/property-changes.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import { checkPropertyBatch } from '../artifacts/property-limits.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { locateNode } from '../tree-browser/locate-node.ts';
import { PROPERTY_MESSAGES } from './messages.ts';

export interface ArtifactProperty {
  name: string;
  /** In stored order. */
  value: string[];
}

/** Where a change lands: the node itself, and with `recursive` everything below a folder. */
export interface PropertyTarget {
  repoKey: string;
  path: string;
  recursive: boolean;
}

/**
 * The tree browser's Properties tab: the same stored properties, and the same SQL, as the
 * scripted `?properties` calls of the storage API (artifacts/properties.ts).
 */
export function createArtifactPropertiesService(db: Database, artifacts: ArtifactsService) {
  /**
   * The scope a change applies to. A virtual repository stores nothing of its own, and the
   * Trash Can's items are restored as they were deleted, so neither is changed here.
   */
  async function writableScope(target: PropertyTarget): Promise<CheckedScope> {
    const { repo, node, source } = await locateNode(artifacts, target.repoKey, target.path);
    if (repo.rclass === 'virtual') throw new BadRequest(PROPERTY_MESSAGES.virtual(repo.key));
    if (repo.key === TRASH_REPO_KEY) throw new BadRequest(PROPERTY_MESSAGES.inTrash);
    // The root (no node) keeps the repository's own properties, and is a folder.
    if (!node)
      return { repositoryId: repo.id, repoKey: repo.key, path: '', recursive: target.recursive };
    return {
      repositoryId: source!.id,
      repoKey: source!.key,
      path: node.path,
      recursive: target.recursive && node.folder,
    };
  }

  return {
    /** The node's properties by name; a virtual repository's files are read through members. */
    async list(repoKey: string, path: string): Promise<{ artifactProperties: ArtifactProperty[] }> {
      const { repo, node } = await locateNode(artifacts, repoKey, path);
      const properties = node
        ? await readProperties(db, node.id)
        : await readRootProperties(db, repo.id);
      const names = Object.keys(properties).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return { artifactProperties: names.map((name) => ({ name, value: properties[name]! })) };
    },

    /**
     * Replaces one property's values on the target, once the caller's walker
     * allows Annotate on each node it reaches (below a folder, written a page at a time).
     */
    async set(
      target: PropertyTarget,
      property: ArtifactProperty,
      walker: ItemWalker,
    ): Promise<{ info: string }> {
      checkPropertyBatch({ [property.name]: property.value });
      const scope = await writableScope(target);
      await setCheckedProperties(db, scope, { [property.name]: property.value }, walker);
      return { info: PROPERTY_MESSAGES.set(property.name) };
    },

    /** Deletes properties by name from the target; names it does not have are no error. */
    async delete(
      target: PropertyTarget,
      names: string[],
      walker: ItemWalker,
    ): Promise<{ info: string }> {
      await deleteCheckedProperties(db, await writableScope(target), names, walker);
      return { info: PROPERTY_MESSAGES.deleted };
    },
  };
}

export type ArtifactPropertiesService = ReturnType<typeof createArtifactPropertiesService>;
