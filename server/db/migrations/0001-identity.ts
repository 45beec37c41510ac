import { sql, type Kysely } from 'kysely';

/** Users, groups, membership, console sessions and instance settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('profile_updatable', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('disable_ui_access', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('internal_password_disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('realm', 'text', (c) => c.notNull().defaultTo('internal'))
    .addColumn('password_expired', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_logged_in', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Names are unique regardless of case, as users type them in any case at sign-in.
  await sql`create unique index users_name_lower on users (lower(name))`.execute(db);

  await db.schema
    .createTable('groups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('auto_join', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('admin_privileges', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('realm', 'text', (c) => c.notNull().defaultTo('internal'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index groups_name_lower on groups (lower(name))`.execute(db);

  await db.schema
    .createTable('user_groups')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) =>
      c.notNull().references('groups.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('user_groups_pk', ['user_id', 'group_id'])
    .execute();
  await db.schema.createIndex('user_groups_group').on('user_groups').column('group_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .execute();
}
