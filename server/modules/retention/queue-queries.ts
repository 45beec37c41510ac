import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { UNFINISHED } from './execution-queries.ts';

/**
 * The queue of policy runs (docs/retention.md, "A run"): Run Now while a run is in flight
 * writes a PENDING execution; whichever process holds the retention lock starts the pending
 * runs, oldest first, when its own run ends. The queue lives in the database so that any
 * node's trigger reaches the node that runs.
 */

/** Queues a run of the policy; a policy already queued keeps its one pending run. */
export async function queueRun(db: Database, policyKey: string, actor: string) {
  const queued = await db
    .selectFrom('retention_executions')
    .select('id')
    .where('policy_key', '=', policyKey)
    .where('kind', '=', 'archive')
    .where('state', '=', 'PENDING')
    .executeTakeFirst();
  if (queued) return Number(queued.id);
  const row = await db
    .insertInto('retention_executions')
    .values({
      kind: 'archive',
      policy_key: policyKey,
      action: null,
      state: 'PENDING',
      started_by: actor,
      finished_at: null,
      undone_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Takes the policy's pending run, if any, to start it now: it becomes IN_PROGRESS and its
 * start time is now (the duration limit counts from here). A run taken by another process,
 * or cancelled meanwhile, is not answered.
 */
export async function takePending(db: Database, policyKey: string) {
  const row = await db
    .updateTable('retention_executions')
    .set({ state: 'IN_PROGRESS', started_at: sql<Date>`now()` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('retention_executions')
        .select((inner) => inner.fn.min('id').as('id'))
        .where('policy_key', '=', policyKey)
        .where('kind', '=', 'archive')
        .where('state', '=', 'PENDING'),
    )
    .where('state', '=', 'PENDING')
    .returning(['id', 'started_at', 'started_by'])
    .executeTakeFirst();
  return row
    ? { id: Number(row.id), startedAt: new Date(row.started_at), startedBy: row.started_by }
    : undefined;
}

/** The policy of the oldest pending run. */
export async function nextPending(db: Database): Promise<string | undefined> {
  const row = await db
    .selectFrom('retention_executions')
    .select('policy_key')
    .where('kind', '=', 'archive')
    .where('state', '=', 'PENDING')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.policy_key ?? undefined;
}

/** Cancels the policies' pending runs (a stop, a delete): they end without starting. */
export async function cancelPending(db: Database, policyKeys: string[], message: string) {
  if (policyKeys.length === 0) return 0;
  const rows = await db
    .updateTable('retention_executions')
    .set({ state: 'STOPPED_BY_USER', finished_at: sql<Date>`now()`, message })
    .where('policy_key', 'in', policyKeys)
    .where('kind', '=', 'archive')
    .where('state', '=', 'PENDING')
    .returning('id')
    .execute();
  return rows.length;
}

/** The policies among `policyKeys` with a run in flight (on any node). */
export async function runningPolicies(db: Database, policyKeys?: string[]): Promise<string[]> {
  if (policyKeys?.length === 0) return [];
  let query = db
    .selectFrom('retention_executions')
    .select('policy_key')
    .distinct()
    .where('kind', '=', 'archive')
    .where('state', 'in', UNFINISHED)
    .where('finished_at', 'is', null);
  if (policyKeys) query = query.where('policy_key', 'in', policyKeys);
  const rows = await query.execute();
  return rows.map((row) => row.policy_key).filter((key): key is string => key !== null);
}
