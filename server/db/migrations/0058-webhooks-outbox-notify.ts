import { sql, type Kysely } from 'kysely';

/**
 * Every node's webhook dispatcher hears of an event once it has committed (migration 0008's
 * trigger function, through the change listener): a node's own wake comes as the event is
 * written and its round may look before the commit, and other nodes heard of it only at their
 * next poll (docs/webhooks.md, "Delivery"). Inserts only: the dispatcher's own updates of the
 * outbox (fanned out) and the retention's deletes need to wake no one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger event_outbox_inserted
    after insert on event_outbox
    for each statement execute function depot_notify_table_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists event_outbox_inserted on event_outbox`.execute(db);
}
