import { sql, type Kysely } from 'kysely';

/**
 * MFA and the password policy (docs/mfa.md, docs/password-policy.md).
 * - `mfa_secret` is the enrolled TOTP secret, sealed with the master key; `mfa_pending_secret`
 *   is one offered by the enroll screen and not yet confirmed with a code.
 * - `mfa_last_step` is the time step of the last accepted code, so a code works only once.
 * - `password_changed_at` starts the expiry clock; `password_history` keeps the hashes of
 *   earlier passwords so the policy can refuse reusing them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('mfa_secret', 'text')
    .addColumn('mfa_pending_secret', 'text')
    .addColumn('mfa_last_step', 'bigint')
    .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('password_history')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('password_history_user')
    .on('password_history')
    .columns(['user_id', 'id'])
    .execute();
}
