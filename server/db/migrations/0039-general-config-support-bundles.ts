import { sql, type Kysely } from 'kysely';

/**
 * Issue 28. The trash can's settings become fields of the general configuration (item 5):
 * one audited document; what an admin saved under the old `trashcan` key is carried over.
 * Support bundles (item 4): one row per bundle, its zip in `home/support-bundles`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_bundles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint')
    .addColumn('error', 'text')
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`
    INSERT INTO settings (key, value)
    SELECT 'general', jsonb_strip_nulls(jsonb_build_object(
      'trashcanEnabled', value -> 'enabled',
      'trashcanRetentionDays', value -> 'retentionPeriodDays'))
    FROM settings WHERE key = 'trashcan'
    ON CONFLICT (key) DO UPDATE SET value = settings.value || EXCLUDED.value`.execute(db);
  await sql`DELETE FROM settings WHERE key = 'trashcan'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('support_bundles').execute();
  await sql`
    INSERT INTO settings (key, value)
    SELECT 'trashcan', jsonb_strip_nulls(jsonb_build_object(
      'enabled', value -> 'trashcanEnabled',
      'retentionPeriodDays', value -> 'trashcanRetentionDays'))
    FROM settings WHERE key = 'general'
    ON CONFLICT (key) DO NOTHING`.execute(db);
}
