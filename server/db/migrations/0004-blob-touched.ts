import { sql, type Kysely } from 'kysely';

/**
 * When a blob was last claimed by a deploy. Garbage collection leaves blobs touched within
 * its grace period alone, so content being re-uploaded right now is never collected.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('blobs')
    .addColumn('touched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('blobs_touched_at').on('blobs').column('touched_at').execute();
}
