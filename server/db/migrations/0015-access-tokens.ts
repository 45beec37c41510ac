import { sql, type Kysely } from 'kysely';

/**
 * Access tokens and API keys (docs/access-tokens.md). A token is a signed JWT; its row is what
 * makes it revocable and listable (the JWT's `jti` is the row's id). An API key is kept as a
 * SHA-256 (looked up on every request that sends one) and sealed with the master key, so its
 * owner can be shown it again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('issued_by', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('access_tokens_subject')
    .on('access_tokens')
    .column('subject')
    .execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('key_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Revocations and new keys must reach every cluster node's caches at once (migration 0008).
  for (const table of ['access_tokens', 'api_keys']) {
    await sql`
      create trigger ${sql.id(`${table}_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function depot_notify_table_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('access_tokens').execute();
}
