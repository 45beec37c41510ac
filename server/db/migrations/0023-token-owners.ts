import { sql, type Kysely } from 'kysely';

/**
 * Binds access tokens to the user they were issued for by id, not by name (docs/security.md,
 * "Credentials die with their user"): deleting the user deletes its tokens in the same
 * statement, and a later user of the same name is a different id that no old token names.
 * Tokens whose subject names no user (group-scoped tokens for a service name, admin tokens)
 * stay unbound. Existing tokens are bound to the user of that name that exists now; a
 * user-scoped token whose user is already gone acted as nobody and is revoked, so that it can
 * never attach to a user created later under that name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('access_tokens')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await sql`
    update access_tokens set user_id = users.id
    from users where lower(users.name) = lower(access_tokens.subject)`.execute(db);
  await sql`
    update access_tokens set revoked_at = now()
    where user_id is null and scope = 'applied-permissions/user' and revoked_at is null`.execute(
    db,
  );
  await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').execute();
}
