import { sql, type Kysely } from 'kysely';

/**
 * Temporary sign-in locks per account and client address (docs/security.md, "Lockout"),
 * replacing the account-wide lock that anyone could set on anyone (users.locked and
 * users.failed_logins, dropped here: a lock they held is lifted).
 * - `account` is the name as signed in with, lower-cased, whether or not such a user exists,
 *   so unknown names lock exactly as known ones do;
 * - `failures` counts failures in a row from `address`; `locks` how many times in a row they
 *   locked it, which makes each lock longer; `locked_until` ends the current one.
 * Other nodes of a cluster hear of every write (migration 0008's trigger function).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_locks')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locks', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_locks_pk', ['account', 'address'])
    .execute();
  await db.schema
    .createIndex('sign_in_locks_last_failure')
    .on('sign_in_locks')
    .column('last_failure_at')
    .execute();
  await sql`
    create trigger sign_in_locks_changed
    after insert or update or delete or truncate on sign_in_locks
    for each statement execute function depot_notify_table_change()`.execute(db);
  await db.schema.alterTable('users').dropColumn('locked').dropColumn('failed_logins').execute();
}
