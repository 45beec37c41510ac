import { sql, type Kysely } from 'kysely';

/**
 * Every node of a cluster hears of writes to the schema engine's documents (migration
 * 0008's trigger function), as it does of users' and repositories': the webhook dispatcher
 * keeps the subscriptions in memory (docs/webhooks.md, "Delivery") and drops them at once
 * when any node changes one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger entity_documents_changed
    after insert or update or delete or truncate on entity_documents
    for each statement execute function depot_notify_table_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists entity_documents_changed on entity_documents`.execute(db);
}
