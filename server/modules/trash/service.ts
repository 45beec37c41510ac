import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { transfer } from '../artifacts/copy-move.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import type { ArtifactsService } from '../artifacts/service.ts';

/** Spec 02 §9: the automatic trash can's repository key. */
export const TRASH_REPO_KEY = 'auto-trashcan';

export interface TrashConfig {
  enabled: boolean;
  retentionPeriodDays: number;
}

const DEFAULT_TRASH_CONFIG: TrashConfig = { enabled: true, retentionPeriodDays: 14 };
const SETTINGS_KEY = 'trashcan';
const DELETED_AT = 'trash.deleted';
const DELETED_BY = 'trash.deletedBy';

/**
 * The trash can: with it on (the default), a delete moves the item to `auto-trashcan` under
 * `{repoKey}/{path}`, from where it can be restored to where it was, until the retention
 * period ends or the trash is emptied. Moving is metadata only, so it costs no copying.
 */
export function createTrashService(db: Database, artifacts: ArtifactsService) {
  async function config(): Promise<TrashConfig> {
    const row = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', SETTINGS_KEY)
      .executeTakeFirst();
    return { ...DEFAULT_TRASH_CONFIG, ...(row?.value as Partial<TrashConfig> | undefined) };
  }

  /** The trash repository, created the first time something is deleted. */
  async function trashRepository() {
    await db
      .insertInto('repositories')
      .values({
        key: TRASH_REPO_KEY,
        rclass: 'local',
        package_type: 'generic',
        description: 'Trash Can',
        notes: '',
        includes_pattern: '**/*',
        excludes_pattern: '',
        repo_layout_ref: 'simple-default',
        config: '{}',
      })
      .onConflict((c) => c.expression(sql`lower(key)`).doNothing())
      .execute();
    return artifacts.repository(TRASH_REPO_KEY);
  }

  /** Where a restore puts an item: `to`, else where it was deleted from. */
  async function restoreTarget(trashPath: string, to: string | undefined) {
    // Looked up, not created: a restore that finds nothing must leave no trash can behind.
    const trash = await db
      .selectFrom('repositories')
      .select('id')
      .where(sql`lower(key)`, '=', TRASH_REPO_KEY)
      .executeTakeFirst();
    const node = trash && (await artifacts.findNode(trash.id, trashPath));
    if (!node) throw new NotFound(`'${trashPath}' is not in the trash can`);
    const destination = (to ?? trashPath).replace(/^\//, '');
    const [toRepo, ...rest] = destination.split('/');
    if (!toRepo || rest.length === 0)
      throw new BadRequest('Restore needs a target: {repoKey}/{path}');
    return { toRepo, rest };
  }

  return {
    config,

    async updateConfig(change: Partial<TrashConfig>): Promise<TrashConfig> {
      const next = { ...(await config()), ...change };
      await db
        .insertInto('settings')
        .values({ key: SETTINGS_KEY, value: JSON.stringify(next) })
        .onConflict((c) => c.column('key').doUpdateSet({ value: JSON.stringify(next) }))
        .execute();
      return next;
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
      await artifacts.deleteTree(trash.id, trashPath); // an earlier delete of the same path
      await transfer(db, artifacts, {
        kind: 'move',
        fromRepo: repo.key,
        fromPath: path,
        toRepo: trash.key,
        toPath: trashPath,
        dryRun: false,
        walker,
        intoTrash: true,
      });
      const moved = await artifacts.findNode(trash.id, trashPath);
      await db
        .insertInto('node_properties')
        .values([
          { node_id: moved!.id, key: DELETED_AT, value: new Date().toISOString() },
          { node_id: moved!.id, key: DELETED_BY, value: user },
        ])
        .onConflict((c) => c.doNothing())
        .execute();
      return 'trash';
    },

    /**
     * Puts an item back where it was deleted from (`{repoKey}/{path}` inside the trash), or
     * at `to`: a move out of the trash, each item checked through the caller's walker.
     */
    async restore(trashPath: string, to: string | undefined, walker: ItemWalker): Promise<string> {
      const { toRepo, rest } = await restoreTarget(trashPath, to);
      await transfer(db, artifacts, {
        kind: 'move',
        fromRepo: TRASH_REPO_KEY,
        fromPath: trashPath,
        toRepo,
        toPath: rest.join('/'),
        dryRun: false,
        walker,
      });
      const restored = await artifacts.findNode(
        (await artifacts.repository(toRepo)).id,
        rest.join('/'),
      );
      if (restored) {
        await db
          .deleteFrom('node_properties')
          .where('node_id', '=', restored.id)
          .where('key', 'in', [DELETED_AT, DELETED_BY])
          .execute();
      }
      return `${toRepo}/${rest.join('/')}`;
    },

    /** A restore's dry run: checked as a real one is, nothing moved; answers what it would do. */
    async planRestore(
      trashPath: string,
      to: string | undefined,
      walker: ItemWalker,
    ): Promise<string> {
      const { toRepo, rest } = await restoreTarget(trashPath, to);
      const plan = await transfer(db, artifacts, {
        kind: 'move',
        fromRepo: TRASH_REPO_KEY,
        fromPath: trashPath,
        toRepo,
        toPath: rest.join('/'),
        dryRun: true,
        walker,
      });
      return plan.message;
    },

    /** Deletes everything in the trash for good, once the caller may delete all of it. */
    async empty(walker: ItemWalker): Promise<void> {
      const trash = await trashRepository();
      await walker.requireSubtree('delete', trash, '');
      await db.deleteFrom('nodes').where('repository_id', '=', trash.id).execute();
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
      for (const { path } of expired) await artifacts.deleteTree(trash.id, path);
      return expired.length;
    },
  };
}

export type TrashService = ReturnType<typeof createTrashService>;
