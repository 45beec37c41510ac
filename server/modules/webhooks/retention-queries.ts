import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** Rows one delete removes at most: a long backlog is pruned in short transactions. */
const BATCH = 5000;

/** Deletes in batches until none is left; answers how many rows went. */
async function inBatches(deleteBatch: () => Promise<bigint | number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number(await deleteBatch());
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

const rowsOf = (result: { numAffectedRows?: bigint }) => result.numAffectedRows ?? 0n;

/**
 * Deliveries finished (delivered, failed for good or cancelled) before `cutoff`, with their
 * attempts, in one statement. A pending delivery is never pruned, however old.
 */
export function pruneFinishedDeliveries(db: Database, cutoff: Date) {
  return inBatches(async () => {
    const { rows } = await sql<{ deleted: string | number }>`
      with gone as (
        delete from webhook_deliveries where id in (
          select id from webhook_deliveries
          where state <> 'pending' and finished_at < ${cutoff}
          limit ${BATCH})
        returning id),
      attempts_gone as (
        delete from webhook_attempts a using gone where a.delivery = gone.id)
      select count(*) as deleted from gone`.execute(db);
    return Number(rows[0]?.deleted ?? 0);
  });
}

/** Attempts made before `cutoff` of deliveries still kept (one retried for weeks). */
export function pruneOldAttempts(db: Database, cutoff: Date) {
  return inBatches(async () =>
    rowsOf(
      await sql`delete from webhook_attempts where id in (
        select id from webhook_attempts where attempted_at < ${cutoff} limit ${BATCH})`.execute(db),
    ),
  );
}

/**
 * Outbox events fanned out before `cutoff`: their deliveries carry their own frozen payload,
 * so nothing reads them any more. An event not fanned out yet is never pruned.
 */
export function pruneFannedOutEvents(db: Database, cutoff: Date) {
  return inBatches(async () =>
    rowsOf(
      await sql`delete from event_outbox where id in (
        select id from event_outbox where fanned_out and created_at < ${cutoff}
        limit ${BATCH})`.execute(db),
    ),
  );
}
