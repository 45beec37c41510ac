import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import { transfer } from '../artifacts/copy-move.ts';
import { holdRepositoryForRemoval } from '../artifacts/tree-writes.ts';
import { TRASH_MESSAGES } from './messages.ts';
import {
  DELETED_AT,
  deletedFrom,
  forgetDeletion,
  recordDeletion,
  setAsideEarlierDeletion,
} from './trash-versions.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { GeneralConfigService } from '../general-config/service.ts';

import { TRASH_REPO_KEY } from './trash-key.ts';
import { ensureInternalRepository } from '../repositories/internal-repository.ts';

export { TRASH_REPO_KEY };

export interface TrashConfig {
  enabled: boolean;
  retentionPeriodDays: number;
}

/**
 * The trash can: with it on (the default), a delete moves the item to `auto-trashcan` under
 * `{repoKey}/{path}`, from where it can be restored to where it was, until the retention
 * period ends or the trash is emptied. Moving is metadata only, so it costs no copying.
 */
export function createTrashService(
  db: Database,
  artifacts: ArtifactsService,
  generalConfig: GeneralConfigService,
) {
  // The trash can's settings are fields of the general configuration (one audited document).
  async function config(): Promise<TrashConfig> {
    const general = await generalConfig.get();
    return { enabled: general.trashcanEnabled, retentionPeriodDays: general.trashcanRetentionDays };
  }

  /** The trash repository, created the first time something is deleted. */
  async function trashRepository() {
    await ensureInternalRepository(db, TRASH_REPO_KEY, 'Trash Can');
    return artifacts.repository(TRASH_REPO_KEY);
  }

  /** The trash can, if something was ever deleted into it. */
  async function existingTrash() {
    // Looked up, not created: a restore that finds nothing must leave no trash can behind.
    return db
      .selectFrom('repositories')
      .select('id')
      .where(sql`lower(key)`, '=', TRASH_REPO_KEY)
      .executeTakeFirst();
  }

  /**
   * Where a restore puts an item: `to`, else where it was deleted from: its path in the
   * trash, or, for an earlier deletion set aside (`f.txt~1`), the path it was deleted at.
   */
  async function restoreTarget(trashPath: string, to: string | undefined) {
    const trash = await existingTrash();
    const node = trash && (await artifacts.findNode(trash.id, trashPath));
    if (!node) throw new NotFound(`'${trashPath}' is not in the trash can`);
    const destination = (to ?? (await deletedFrom(db, trash.id, trashPath))).replace(/^\//, '');
    const [toRepo, ...rest] = destination.split('/');
    if (!toRepo || rest.length === 0)
      throw new BadRequest('Restore needs a target: {repoKey}/{path}');
    return { toRepo, rest };
  }

  /** Moves an item out of the trash; never over a file that is there now (a 409 naming them). */
  async function moveOut(
    trashPath: string,
    to: string | undefined,
    walker: ItemWalker,
    dryRun: boolean,
  ) {
    const { toRepo, rest } = await restoreTarget(trashPath, to);
    const result = await transfer(db, artifacts, {
      kind: 'move',
      fromRepo: TRASH_REPO_KEY,
      fromPath: trashPath,
      toRepo,
      toPath: rest.join('/'),
      dryRun,
      walker,
      refuseOverwrite: (paths) => new Conflict(TRASH_MESSAGES.wouldOverwrite(paths)),
      landing: { after: (tx, { repositoryId, root }) => forgetDeletion(tx, repositoryId, root) },
    });
    return { result, restoredTo: `${toRepo}/${rest.join('/')}` };
  }

  return {
    config,

    async updateConfig(change: Partial<TrashConfig>, actor = 'system'): Promise<TrashConfig> {
      const general = await generalConfig.update(
        {
          ...(change.enabled === undefined ? {} : { trashcanEnabled: change.enabled }),
          ...(change.retentionPeriodDays === undefined
            ? {}
            : { trashcanRetentionDays: change.retentionPeriodDays }),
        },
        actor,
      );
      return {
        enabled: general.trashcanEnabled,
        retentionPeriodDays: general.trashcanRetentionDays,
      };
    },

    /**
     * Deletes an item and everything below it: to the trash when it is on, for good when it
     * is off or the item is already there. The caller's walker checks Delete on every item
     * first; one it may not delete refuses the whole delete, and nothing goes.
     */
    async delete(
      repoKey: string,
      path: string,
      walker: ItemWalker,
    ): Promise<'trash' | 'permanent'> {
      const user = walker.principal.name;
      const repo = await artifacts.repository(repoKey);
      const inTrash = repo.key.toLowerCase() === TRASH_REPO_KEY;
      if (!(await config()).enabled || inTrash || repo.rclass !== 'local') {
        await artifacts.delete(repoKey, path, walker);
        return 'permanent';
      }
      if (!path)
        throw new BadRequest(
          'Deleting a whole repository is done through /artifactory/api/repositories',
        );
      if (!(await artifacts.findNode(repo.id, path)))
        throw new NotFound(`Could not locate artifact '${repo.key}:${path}'.`);
      // Checked before the trash is touched: a refused delete must not remove an earlier
      // deletion of the same path from it either. The move checks the items it moves again.
      await walker.requireSubtree('delete', repo, path);
      const trash = await trashRepository();
      const trashPath = `${repo.key}/${path}`;
      await transfer(db, artifacts, {
        kind: 'move',
        fromRepo: repo.key,
        fromPath: path,
        toRepo: trash.key,
        toPath: trashPath,
        dryRun: false,
        walker,
        intoTrash: true,
        landing: {
          // An earlier deletion of the same path stays in the trash, set aside (`f.txt~1`).
          before: (tx, { root }) => setAsideEarlierDeletion(tx, trash.id, root),
          after: (tx, { root }) => recordDeletion(tx, trash.id, root, user),
        },
      });
      return 'trash';
    },

    /**
     * Puts an item back where it was deleted from (`{repoKey}/{path}` inside the trash), or
     * at `to`: a move out of the trash, each item checked through the caller's walker.
     */
    async restore(trashPath: string, to: string | undefined, walker: ItemWalker): Promise<string> {
      return (await moveOut(trashPath, to, walker, false)).restoredTo;
    },

    /**
     * A restore's dry run: checked as a real one is, nothing moved; answers what it would do,
     * or the same refusal (a 409 naming the files it would overwrite).
     */
    async planRestore(
      trashPath: string,
      to: string | undefined,
      walker: ItemWalker,
    ): Promise<string> {
      return (await moveOut(trashPath, to, walker, true)).result.message;
    },

    /** Deletes everything in the trash for good, once the caller may delete all of it. */
    async empty(walker: ItemWalker): Promise<void> {
      const trash = await trashRepository();
      await retryTransaction(() =>
        db.transaction().execute(async (tx) => {
          await holdRepositoryForRemoval(tx, trash.id);
          await walker.requireSubtree('delete', trash, '', tx);
          await tx.deleteFrom('nodes').where('repository_id', '=', trash.id).execute();
        }),
      );
    },

    /** Removes what has been in the trash longer than the retention period. */
    async purgeExpired(now = new Date()): Promise<number> {
      const { retentionPeriodDays } = await config();
      const cutoff = new Date(now.getTime() - retentionPeriodDays * 24 * 3600 * 1000).toISOString();
      const trash = await trashRepository();
      const expired = await db
        .selectFrom('node_properties')
        .innerJoin('nodes', 'nodes.id', 'node_properties.node_id')
        .select('nodes.path')
        .where('nodes.repository_id', '=', trash.id)
        .where('node_properties.key', '=', DELETED_AT)
        .where('node_properties.value', '<', cutoff)
        .execute();
      for (const { path } of expired) await artifacts.removeTree(trash, path, 'system');
      return expired.length;
    },
  };
}

export type TrashService = ReturnType<typeof createTrashService>;
