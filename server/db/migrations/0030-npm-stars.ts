import { sql, type Kysely } from 'kysely';

/**
 * `npm star` (docs/npm.md, "Account commands"): who starred which package, per repository the
 * star was given through. A star goes with its user and its repository.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('npm_stars')
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('npm_stars_pkey', ['repository_id', 'name', 'user_id'])
    .execute();
  await db.schema.createIndex('npm_stars_by_user').on('npm_stars').columns(['user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('npm_stars').execute();
}
