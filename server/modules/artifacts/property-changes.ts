import type { Database } from '../../db/database.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import {
  deletePropertiesInScope,
  setPropertiesInScope,
  type NodeFilter,
  type Properties,
  type PropertyScope,
} from './properties.ts';

/** A property change's scope, with the key of the repository it is in. */
export type CheckedScope = PropertyScope & { repoKey: string };

/**
 * Refuses the change unless the caller's walker allows Annotate on every node it reaches: a
 * recursive change reaches everything below a folder (or all of a repository), and one node
 * the caller may not annotate refuses the whole change before anything is written.
 */
async function requireAnnotate(scope: CheckedScope, walker: ItemWalker) {
  const repo = { id: scope.repositoryId, key: scope.repoKey };
  if (scope.recursive) await walker.requireSubtree('annotate', repo, scope.path);
  // The root's own properties are the repository's: Annotate on all of it, not on a folder
  // inside it.
  else if (scope.path === '') walker.requireRepository('annotate', repo.key);
}

/**
 * The write's own filter: the change is written a page at a time after the check (so that
 * no statement holds the database for long, docs/security.md), and a node deployed below the
 * folder in between is written only if the caller may annotate it.
 */
function annotatable(scope: CheckedScope, walker: ItemWalker): NodeFilter | undefined {
  if (walker.access.admin) return undefined;
  return (node) =>
    walker.access.can('annotate', scope.repoKey, node.path, node.folder ? 'folder' : 'file');
}

/** Sets properties (each key's values replaced) on the scope, once all of it is allowed. */
export async function setCheckedProperties(
  db: Database,
  scope: CheckedScope,
  properties: Properties,
  walker: ItemWalker,
) {
  await requireAnnotate(scope, walker);
  await setPropertiesInScope(
    db,
    scope,
    properties,
    walker.principal.name,
    annotatable(scope, walker),
  );
}

/** Deletes properties by key from the scope, once all of it is allowed. */
export async function deleteCheckedProperties(
  db: Database,
  scope: CheckedScope,
  keys: string[],
  walker: ItemWalker,
) {
  await requireAnnotate(scope, walker);
  await deletePropertiesInScope(db, scope, keys, walker.principal.name, annotatable(scope, walker));
}
