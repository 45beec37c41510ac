import { sql, type Kysely } from 'kysely';

/**
 * Repository layouts an admin adds; the built-in ones stay in schemas/catalogue and are
 * never copied here, so a new release can improve them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('repo_layouts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('artifact_path_pattern', 'text', (c) => c.notNull())
    .addColumn('distinctive_descriptor_path_pattern', 'boolean', (c) =>
      c.notNull().defaultTo(false),
    )
    .addColumn('descriptor_path_pattern', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('folder_integration_revision_regexp', 'text', (c) => c.notNull())
    .addColumn('file_integration_revision_regexp', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index repo_layouts_name_lower on repo_layouts (lower(name))`.execute(db);
}
