import { sql, type Kysely } from 'kysely';

/**
 * One-time keys mailed to users: password resets and invitations (docs/mail.md). Only the
 * key's SHA-256 is kept, so the table alone lets nobody reset a password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_tokens')
    .addColumn('key_sha256', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('user_tokens_user')
    .on('user_tokens')
    .columns(['user_id', 'purpose'])
    .execute();
}
