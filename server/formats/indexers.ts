import type { IndexHook, PrepareIndex } from '../modules/artifacts/service.ts';

/**
 * The package formats' indexers as one: each looks at a file about to be stored and may
 * refuse it or answer index rows to write with it. The hooks run in the file's transaction,
 * in the order given.
 */
export function combineIndexers(indexers: PrepareIndex[]): PrepareIndex {
  return async (repo, path, file) => {
    const hooks: IndexHook[] = [];
    for (const indexer of indexers) {
      const hook = await indexer(repo, path, file);
      if (hook) hooks.push(hook);
    }
    if (hooks.length === 0) return undefined;
    return async (tx, stored) => {
      for (const hook of hooks) await hook(tx, stored);
    };
  };
}
