import type { Database } from '../../db/database.ts';
import { BadRequest, Forbidden } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { locateNode } from '../tree-browser/locate-node.ts';
import { WATCH_MESSAGES } from './messages.ts';
import { addWatch, isWatching, removeWatch, watchesCovering } from './queries.ts';

export type Watcher = Pick<Principal, 'name' | 'anonymous' | 'admin'>;

export interface WatchStatus {
  /** Whether the caller watches this very node. */
  watching: boolean;
  /** Everyone watching it or a folder above it, or its whole repository. */
  watchers: { name: string; path: string; watchingSince: string }[];
}

/** `repoKey/path` as the console shows it; `repoKey/` for the repository itself. */
const where = (repoKey: string, path: string) => `${repoKey}/${path}`;

/**
 * Watches on files, folders and repositories (the tree's Watch tab). A watch belongs to the
 * repository asked for, a virtual one included, and outlives the node it names: a file
 * deleted and deployed again is still watched.
 */
export function createWatchesService(db: Database, artifacts: ArtifactsService) {
  /** The node must exist to be watched; the Trash Can's items are not for watching. */
  async function watchable(repoKey: string, path: string) {
    const located = await locateNode(artifacts, repoKey, path);
    if (located.repo.key === TRASH_REPO_KEY) throw new BadRequest(WATCH_MESSAGES.trash);
    return located.repo;
  }

  return {
    async status(repoKey: string, path: string, caller: Watcher): Promise<WatchStatus> {
      const { repo } = await locateNode(artifacts, repoKey, path);
      const rows = await watchesCovering(db, repo.id, path);
      return {
        watching:
          !caller.anonymous && rows.some((w) => w.path === path && w.username === caller.name),
        watchers: rows.map((w) => ({
          name: w.username,
          path: where(repo.key, w.path),
          watchingSince: new Date(w.created_at).toISOString(),
        })),
      };
    },

    async watch(repoKey: string, path: string, caller: Watcher): Promise<{ info: string }> {
      if (caller.anonymous) throw new Forbidden(WATCH_MESSAGES.anonymous);
      const repo = await watchable(repoKey, path);
      await addWatch(db, repo.id, path, caller.name);
      return { info: WATCH_MESSAGES.watching(where(repo.key, path)) };
    },

    /**
     * Removes the caller's watch, or with `name` someone else's (admins only). The node need
     * not exist any more: its watch outlives it. Removing a watch that is not there is no error.
     */
    async unwatch(
      repoKey: string,
      path: string,
      caller: Watcher,
      name?: string,
    ): Promise<{ info: string }> {
      const username = name ?? caller.name;
      if (caller.anonymous) throw new Forbidden(WATCH_MESSAGES.anonymous);
      if (username !== caller.name && !caller.admin)
        throw new Forbidden(WATCH_MESSAGES.othersWatch);
      const repo = await artifacts.repository(repoKey);
      await removeWatch(db, repo.id, path, username);
      return { info: WATCH_MESSAGES.stopped(where(repo.key, path)) };
    },

    /** Whether a signed-in user watches this very node (the tree's watch or unwatch action). */
    isWatching(repositoryId: number, path: string, username: string) {
      return isWatching(db, repositoryId, path, username);
    },
  };
}

export type WatchesService = ReturnType<typeof createWatchesService>;
