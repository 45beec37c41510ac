import { sql, type Kysely } from 'kysely';

/** Paths an upstream did not have, remembered for a while so clients do not hammer it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('remote_misses')
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('remote_misses_pk', ['repository_id', 'path'])
    .execute();
}
