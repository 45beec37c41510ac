import { sql, type Kysely } from 'kysely';

/**
 * Property sets (spec 03, Property sets): named lists of properties, each with a value type
 * and its predefined values, kept as one jsonb document per set because they are always
 * read and written whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('property_sets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('properties', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('property_sets').execute();
}
