import type { Logger } from 'pino';
import type { JobResult } from '../../jobs/scheduler.ts';
import type { Criterion } from '../search/criteria.ts';
import {
  recordAction,
  recordProgress,
  startExecution,
  stopRequested,
  type ExecutionProgress,
} from './execution-queries.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';
import type { RetentionPolicy } from './policy-aql.ts';
import { selectedBatches } from './selection.ts';
import { takeOut, type TakeOutParts } from './take-out.ts';

export interface PolicyRunParts extends TakeOutParts {
  logger: Logger;
}

/**
 * One run of a policy: every file it chooses is taken out (take-out.ts), a batch at a time,
 * with the execution's counts written after each batch (its progress). A stop asked from any
 * node, the policy's duration limit or a shutdown end it between two files, keeping what it
 * did. A file that fails stays where it is and is counted; the run goes on.
 */
export async function runPolicy(
  parts: PolicyRunParts,
  policy: RetentionPolicy,
  where: Criterion,
  actor: string,
  stopping: AbortSignal,
  /** The queued (PENDING) execution this run carries out, else it starts one. */
  queued?: { id: number; startedAt: Date },
): Promise<JobResult> {
  const { db, logger } = parts;
  const action = policy.action ?? 'archive';
  if (queued) await recordAction(db, queued.id, action);
  const execution =
    queued ??
    (await startExecution(db, {
      kind: 'archive',
      policyKey: policy.key,
      action,
      startedBy: actor,
    }));
  const deadline = policy.durationInMinutes
    ? execution.startedAt.getTime() + policy.durationInMinutes * 60_000
    : Infinity;
  const progress: ExecutionProgress = {
    state: 'IN_PROGRESS',
    items: 0,
    bytes: 0,
    freedBytes: 0,
    errors: 0,
  };
  const ended = (state: ExecutionProgress['state'], message?: string) => {
    progress.state = state;
    progress.message = message;
  };
  try {
    batches: for await (const batch of selectedBatches(db, where)) {
      for (const item of batch) {
        if (stopping.aborted) ended('FAILED', 'Depot stopped during the run');
        else if (Date.now() >= deadline)
          ended(
            progress.errors > 0 ? 'COMPLETE_WITH_ERRORS' : 'COMPLETE',
            M.durationReached(policy.durationInMinutes!),
          );
        if (progress.message !== undefined) break batches;
        try {
          const { taken, freed } = await takeOut(parts, item, {
            ...execution,
            action,
            actor,
          });
          if (!taken) continue;
          progress.items += 1;
          progress.bytes += item.size;
          progress.freedBytes += freed;
        } catch (error) {
          progress.errors += 1;
          progress.state = 'IN_PROGRESS_WITH_ERRORS';
          logger.warn(
            { err: error, policy: policy.key, item: `${item.repo}/${item.path}` },
            'retention could not take an item out; it stays in place',
          );
        }
      }
      if (await stopRequested(db, execution.id)) {
        ended('STOPPED_BY_USER', 'Stopped by a user');
        break;
      }
      await recordProgress(db, execution.id, progress, false);
    }
    if (progress.message === undefined)
      progress.state = progress.errors > 0 ? 'COMPLETE_WITH_ERRORS' : 'COMPLETE';
    progress.message ??= M.runSummary(progress.items, progress.freedBytes, progress.errors);
    await recordProgress(db, execution.id, progress, true);
  } catch (error) {
    ended('FAILED', `Failed: ${(error as Error).message}`);
    await recordProgress(db, execution.id, progress, true);
    throw error;
  }
  return {
    info: progress.message,
    execution: execution.id,
    items: progress.items,
    freedBytes: progress.freedBytes,
  };
}
