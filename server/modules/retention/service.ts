import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { FilesystemColdStore } from '../../storage/cold-store.ts';
import { archivedItemMatches } from './archive-match.ts';
import {
  executionsBetween,
  lastRunOf,
  markUndone,
  recordProgress,
  startExecution,
} from './execution-queries.ts';
import {
  archivedAt,
  archivedBatch,
  archiveTotals,
  itemsOfExecution,
  markReleased,
  markRestored,
  unneededContents,
  type ArchivedItem,
} from './item-queries.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';
import { convertToAql, policyCriterion, type RetentionPolicy } from './policy-aql.ts';
import { runPolicy } from './policy-run.ts';
import { fullPath, restoreItems, type RestoreTarget } from './restore.ts';
import { previewOf } from './selection.ts';
import { parseAql } from '../search/aql-parser.ts';
import { binariesSummary, executionView, searchResult } from './views.ts';

export interface RestoreRequest {
  restoreToOriginal?: boolean;
  fallbackDestinationPath?: string;
  centralDestinationPath?: string;
  itemsToRestore: { repo: string; path: string; name: string }[];
}

const SEARCH_PAGE = 500;
const SWEEP_BATCH = 500;

/** `repo/folder` of a destination the restore modal names, as a repository and a folder. */
function destination(path: string | undefined): { repoKey: string; folder: string } | undefined {
  const parts = (path ?? '').split('/').filter(Boolean);
  if (parts.length === 0) return undefined;
  return { repoKey: parts[0], folder: parts.slice(1).join('/') };
}

const under = (folder: string, path: string) => (folder ? `${folder}/${path}` : path);

/**
 * Retention (docs/retention.md): previews, runs, undo, the archive's search and restore, and
 * the cold store's figures. Policies are the schema engine's documents (`retention-policy`).
 */
export function createRetentionService(services: Services, config: DepotConfig, logger: Logger) {
  const { db } = services;
  const cold = new FilesystemColdStore(config.coldStoreDir, config.coldStoreBytesPerSecond);
  const policies = () => services.entities.collection('retention-policy');
  const parts = {
    db,
    filestore: services.filestore,
    cold,
    artifacts: services.artifacts,
    blobHold: services.blobHold,
    logger,
  };

  const restoreRecords = (
    items: ArchivedItem[],
    targetOf: (item: ArchivedItem) => RestoreTarget,
    actor: string,
  ) => restoreItems(parts, items, targetOf, actor, (item) => markRestored(db, Number(item.id)));

  /** Records a restore (or an undo) as an execution of its own, with its outcome. */
  async function recordedRestore(
    action: 'undo' | null,
    policyKey: string | null,
    actor: string,
    work: () => ReturnType<typeof restoreRecords>,
  ) {
    const execution = await startExecution(db, {
      kind: 'restore',
      policyKey,
      action,
      startedBy: actor,
    });
    const outcome = await work();
    const failed = outcome.failures.length;
    const details = outcome.failures.map((f) => `${f.item}: ${f.reason}`).join('; ');
    await recordProgress(
      db,
      execution.id,
      {
        state: failed > 0 ? 'COMPLETE_WITH_ERRORS' : 'COMPLETE',
        items: outcome.restored,
        bytes: outcome.bytes,
        freedBytes: 0,
        errors: failed,
        message: details.slice(0, 4000),
      },
      true,
    );
    return outcome;
  }

  return {
    cold,

    async policy(key: string): Promise<RetentionPolicy> {
      return (await policies().get(key)).document as unknown as RetentionPolicy;
    },

    convertToAql: (policy: RetentionPolicy) => ({ aqlQuery: convertToAql(policy) }),

    async preview(policy: RetentionPolicy) {
      const counted = await previewOf(db, policyCriterion(policy, config.aql));
      return { ...counted, info: M.preview(counted.count, counted.totalSize, counted.freedBytes) };
    },

    /** One run of a saved policy (the job's work), or of its queued execution. */
    async run(
      key: string,
      actor: string,
      stopping: AbortSignal,
      queued?: { id: number; startedAt: Date },
    ) {
      const policy = await this.policy(key);
      const where = policyCriterion(policy, config.aql);
      return runPolicy(parts, policy, where, actor, stopping, queued);
    },

    /** Puts back what the policy's last run took out, within the undo window. */
    async undo(key: string, actor: string) {
      await this.policy(key);
      const last = await lastRunOf(db, key);
      if (!last || !last.finished_at || last.undone_at) throw new Conflict(M.nothingToUndo(key));
      const windowMs = config.retentionUndoHours * 3_600_000;
      if (Date.now() - new Date(last.finished_at).getTime() > windowMs)
        throw new Conflict(M.undoExpired(config.retentionUndoHours));
      const items = await itemsOfExecution(db, Number(last.id));
      const outcome = await recordedRestore('undo', key, actor, () =>
        restoreRecords(items, (item) => ({ repoKey: item.repo_key, path: fullPath(item) }), actor),
      );
      if (outcome.failures.length === 0) await markUndone(db, Number(last.id));
      return { ...outcome, info: M.undone(outcome.restored, outcome.failures.length) };
    },

    /** The restore modal's request: to where each item was, or to a destination. */
    async restore(request: RestoreRequest, actor: string) {
      if (request.itemsToRestore.length === 0) throw new BadRequest(M.noItems);
      const central = destination(request.centralDestinationPath);
      const fallback = destination(request.fallbackDestinationPath);
      if (!request.restoreToOriginal && !central)
        throw new BadRequest(M.destinationRequired, 'centralDestinationPath');
      const items: ArchivedItem[] = [];
      for (const wanted of request.itemsToRestore) {
        const found = await archivedAt(db, wanted.repo, wanted.path, wanted.name);
        if (!found)
          throw new NotFound(M.notArchived(`${wanted.repo}/${wanted.path}/${wanted.name}`));
        items.push(found);
      }
      const existing = new Set<string>();
      for (const item of items)
        if (await services.repositories.findRow(item.repo_key)) existing.add(item.repo_key);
      const targetOf = (item: ArchivedItem): RestoreTarget => {
        const original = { repoKey: item.repo_key, path: fullPath(item) };
        if (request.restoreToOriginal && existing.has(item.repo_key)) return original;
        const to = request.restoreToOriginal ? fallback : central;
        if (!to) return original; // refused by the deploy: the repository is gone
        return {
          repoKey: to.repoKey,
          path: under(to.folder, `${item.repo_key}/${fullPath(item)}`),
        };
      };
      const outcome = await recordedRestore(null, null, actor, () =>
        restoreRecords(items, targetOf, actor),
      );
      return { ...outcome, info: M.restored(outcome.restored, outcome.failures.length) };
    },

    /** The archive search: an AQL query over the archived items (not restored). */
    async search(aql: string) {
      const query = parseAql(aql, config.aql);
      const results: Record<string, unknown>[] = [];
      const limit = query.limit ?? Infinity;
      let skip = query.offset;
      for (let after = 0; results.length < limit;) {
        const batch = await archivedBatch(db, after, SEARCH_PAGE);
        for (const item of batch) {
          if (!archivedItemMatches(item, query.where)) continue;
          if (skip > 0) skip -= 1;
          else if (results.length < limit) results.push(searchResult(item));
        }
        if (batch.length < SEARCH_PAGE) break;
        after = Number(batch.at(-1)!.id);
      }
      return {
        results,
        range: {
          start_pos: query.offset,
          end_pos: query.offset + results.length,
          total: results.length,
        },
      };
    },

    async storageInfo() {
      return { binariesSummary: binariesSummary(await archiveTotals(db)) };
    },

    executions: (kind: 'archive' | 'restore', from: Date, to: Date) =>
      executionsBetween(db, kind, from, to).then((rows) => rows.map(executionView)),

    /** Lets go of cold content no record needs (restored, or deleted past the undo window). */
    async sweepColdStore() {
      const cutoff = new Date(Date.now() - config.retentionUndoHours * 3_600_000);
      for (;;) {
        const contents = await unneededContents(db, cutoff, SWEEP_BATCH);
        for (const sha256 of contents) await cold.remove(sha256);
        await markReleased(db, contents);
        if (contents.length < SWEEP_BATCH) return;
      }
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
