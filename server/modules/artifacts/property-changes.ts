import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import {
  deletePropertiesInScope,
  replacePropertyInScope,
  type Properties,
  type PropertyScope,
} from './properties.ts';

/** A property change's scope, with the key of the repository it is in. */
export type CheckedScope = PropertyScope & { repoKey: string };

/**
 * Runs a property change once the caller's walker allows Annotate on every node it reaches:
 * a recursive change reaches everything below a folder (or all of a repository), and one
 * node the caller may not annotate refuses the whole change. Walk and change share one
 * transaction reading one snapshot, so what changes is what was checked.
 */
async function whenAllowed(
  db: Database,
  scope: CheckedScope,
  walker: ItemWalker,
  change: (tx: Transaction<DepotDatabase>) => Promise<void>,
) {
  // Two changes of one node at repeatable read: the database refuses the second to commit
  // (40001); it runs again, on what the first left.
  await retryTransaction(() =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const repo = { id: scope.repositoryId, key: scope.repoKey };
        if (scope.recursive) await walker.requireSubtree('annotate', repo, scope.path, tx);
        // The root's own properties are the repository's: Annotate on all of it, not on a
        // folder inside it.
        else if (scope.path === '') walker.requireRepository('annotate', repo.key);
        await change(tx);
      }),
  );
}

/** Sets properties (each key's values replaced) on the scope, all or nothing. */
export function setCheckedProperties(
  db: Database,
  scope: CheckedScope,
  properties: Properties,
  walker: ItemWalker,
) {
  return whenAllowed(db, scope, walker, async (tx) => {
    for (const [key, values] of Object.entries(properties))
      await replacePropertyInScope(tx, scope, key, values);
  });
}

/** Deletes properties by key from the scope, all or nothing. */
export function deleteCheckedProperties(
  db: Database,
  scope: CheckedScope,
  keys: string[],
  walker: ItemWalker,
) {
  return whenAllowed(db, scope, walker, (tx) => deletePropertiesInScope(tx, scope, keys));
}
