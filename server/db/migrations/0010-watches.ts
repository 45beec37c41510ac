import { sql, type Kysely } from 'kysely';

/**
 * Who watches which file, folder or repository ('' path), as the tree's Watch tab shows.
 * Watches outlive the node they name (a redeploy at the same path is still watched); only a
 * repository's deletion takes its watches with it. The unique key is also the index the Watch
 * tab reads by: the watchers of a node and its ancestors, one repository at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('watches')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('watches_node_user', ['repository_id', 'path', 'username'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('watches').execute();
}
