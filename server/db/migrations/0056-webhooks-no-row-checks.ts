import { sql, type Kysely } from 'kysely';

/**
 * Drops the two foreign keys every delivery paid for twice (docs/webhooks.md, "Cost"): a
 * delivery's row checked its event (a locking lookup in the outbox, per row, at fan-out) and
 * an attempt's row its delivery (another, per attempt). Depot writes both rows itself, in
 * the statement that reads what they point to, so the checks could never fail; what the
 * keys did besides is done by the statements now: the retention removes a delivery's
 * attempts with it (retention-queries.ts), and a delivery's `event_id` is a note of the
 * event it came from, which the outbox's retention may remove first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop constraint webhook_deliveries_event_id_fkey`.execute(
    db,
  );
  await sql`alter table webhook_attempts drop constraint webhook_attempts_delivery_fkey`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update webhook_deliveries d set event_id = null
    where not exists (select 1 from event_outbox e where e.id = d.event_id)`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_event_id_fkey
    foreign key (event_id) references event_outbox (id) on delete set null`.execute(db);
  await sql`delete from webhook_attempts a
    where not exists (select 1 from webhook_deliveries d where d.id = a.delivery)`.execute(db);
  await sql`alter table webhook_attempts add constraint webhook_attempts_delivery_fkey
    foreign key (delivery) references webhook_deliveries (id) on delete cascade`.execute(db);
}
