import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** The spec's execution states (spec 02, "Retention execution"). */
export type ExecutionState =
  | 'IN_PROGRESS'
  | 'IN_PROGRESS_WITH_ERRORS'
  | 'PENDING'
  | 'COMPLETE'
  | 'COMPLETE_WITH_ERRORS'
  | 'STOPPED_BY_USER'
  | 'STOPPING'
  | 'FAILED'
  | 'TRIGGERED';

export const UNFINISHED: ExecutionState[] = ['IN_PROGRESS', 'IN_PROGRESS_WITH_ERRORS', 'STOPPING'];

export interface ExecutionStart {
  kind: 'archive' | 'restore';
  policyKey: string | null;
  action: 'archive' | 'delete' | 'undo' | null;
  startedBy: string;
}

export async function startExecution(db: Database, start: ExecutionStart) {
  const row = await db
    .insertInto('retention_executions')
    .values({
      kind: start.kind,
      policy_key: start.policyKey,
      action: start.action,
      state: 'IN_PROGRESS',
      started_by: start.startedBy,
      finished_at: null,
      undone_at: null,
    })
    .returning(['id', 'started_at'])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), startedAt: new Date(row.started_at) };
}

/** A queued run starts: it says now what it does (archive or delete). */
export async function recordAction(db: Database, id: number, action: 'archive' | 'delete') {
  await db.updateTable('retention_executions').set({ action }).where('id', '=', id).execute();
}

export interface ExecutionProgress {
  state: ExecutionState;
  items: number;
  bytes: number;
  freedBytes: number;
  errors: number;
  message?: string;
}

export async function recordProgress(
  db: Database,
  id: number,
  progress: ExecutionProgress,
  finished: boolean,
) {
  await db
    .updateTable('retention_executions')
    .set({
      state: progress.state,
      items: progress.items,
      bytes: progress.bytes,
      freed_bytes: progress.freedBytes,
      errors: progress.errors,
      ...(progress.message !== undefined ? { message: progress.message } : {}),
      ...(finished ? { finished_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Whether a stop was asked for this execution (from any node). */
export async function stopRequested(db: Database, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('retention_executions')
    .select('state')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.state === 'STOPPING';
}

/** Marks a policy's run in flight as stopping; answers whether there was one. */
export async function requestStop(db: Database, policyKey: string): Promise<boolean> {
  const rows = await db
    .updateTable('retention_executions')
    .set({ state: 'STOPPING' })
    .where('policy_key', '=', policyKey)
    .where('kind', '=', 'archive')
    .where('state', 'in', UNFINISHED)
    .where('finished_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/**
 * Runs of a policy that never finished: their process ended mid-run. Called under the
 * retention lock, when nothing else can be running them.
 */
export async function failInterrupted(db: Database) {
  await db
    .updateTable('retention_executions')
    .set({
      state: 'FAILED',
      finished_at: sql<Date>`now()`,
      message: 'Interrupted: Depot stopped during the run; what it took out is in the archive',
    })
    .where('kind', '=', 'archive')
    .where('state', 'in', UNFINISHED) // a PENDING run is queued, not interrupted
    .where('finished_at', 'is', null)
    .execute();
}

/** A policy's last run that took items out (not an undo, nor a run still queued). */
export function lastRunOf(db: Database, policyKey: string) {
  return db
    .selectFrom('retention_executions')
    .selectAll()
    .where('policy_key', '=', policyKey)
    .where('kind', '=', 'archive')
    .where('action', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function markUndone(db: Database, id: number) {
  await db
    .updateTable('retention_executions')
    .set({ undone_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** Executions of a kind that started in [from, to], newest first. */
export function executionsBetween(db: Database, kind: 'archive' | 'restore', from: Date, to: Date) {
  return db
    .selectFrom('retention_executions')
    .selectAll()
    .where('kind', '=', kind)
    .where('started_at', '>=', from)
    .where('started_at', '<=', to)
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}
