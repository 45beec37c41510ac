import { Conflict } from '../../errors.ts';
import type { ColdStore } from '../../storage/cold-store.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { ArchivedItem } from './item-queries.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';

/** Where an archived item goes back to: a repository and a full path in it. */
export interface RestoreTarget {
  repoKey: string;
  path: string;
}

export interface RestoreOutcome {
  restored: number;
  bytes: number;
  failures: { item: string; reason: string }[];
}

/** `repo/path/name` of an archived item, as the archive search names it. */
export const itemName = (item: Pick<ArchivedItem, 'repo_key' | 'path' | 'name'>) =>
  `${item.repo_key}/${fullPath(item)}`;

export const fullPath = (item: Pick<ArchivedItem, 'path' | 'name'>) =>
  item.path === '' || item.path === '.' ? item.name : `${item.path}/${item.name}`;

/**
 * Puts archived items back, one deploy each, from the cold store: the content is verified
 * against the SHA-256 and SHA-1 it had, and the item gets its properties back. A file at the
 * target is never overwritten: that item is reported and stays in the archive. `done` is
 * called for each item back in place.
 */
export async function restoreItems(
  parts: { cold: ColdStore; artifacts: Pick<ArtifactsService, 'deploy'> },
  items: ArchivedItem[],
  targetOf: (item: ArchivedItem) => RestoreTarget,
  actor: string,
  done: (item: ArchivedItem) => Promise<void>,
): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { restored: 0, bytes: 0, failures: [] };
  for (const item of items) {
    const target = targetOf(item);
    try {
      if (!(await parts.cold.has(item.sha256))) throw new Conflict(M.notInColdStore);
      await parts.artifacts.deploy({
        repoKey: target.repoKey,
        path: target.path,
        content: parts.cold.read(item.sha256),
        expected: { sha256: item.sha256, sha1: item.sha1 },
        byChecksum: false,
        properties: item.properties,
        user: actor,
        refuseExistingFile: (path) => new Conflict(M.targetTaken(`${target.repoKey}/${path}`)),
      });
      await done(item);
      outcome.restored += 1;
      outcome.bytes += Number(item.size);
    } catch (error) {
      outcome.failures.push({ item: itemName(item), reason: (error as Error).message });
    }
  }
  return outcome;
}
