import { sql, type Kysely } from 'kysely';

/**
 * Search (docs/search.md). Names are searched case-insensitively and paged in name order:
 * one index on the folded name, byte-ordered (collation "C") so that `like 'term%'` is a
 * range scan of it whatever the database's locale. Creation dates answer the date searches.
 * Entries of Java archives, listed once at deploy, answer the class search.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index nodes_name_search on nodes ((lower(name) collate "C"), id)`.execute(db);
  await sql`create index nodes_created on nodes (created_at)`.execute(db);

  await db.schema
    .createTable('archive_entries')
    .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    // The entry's folder inside the archive ('' at its root) and its file name.
    .addColumn('entry_path', 'text', (c) => c.notNull())
    .addColumn('entry_name', 'text', (c) => c.notNull())
    .execute();
  await sql`create index archive_entries_name on archive_entries ((lower(entry_name) collate "C"))`.execute(
    db,
  );
  await db.schema
    .createIndex('archive_entries_node')
    .on('archive_entries')
    .column('node_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('archive_entries').execute();
  await db.schema.dropIndex('nodes_created').execute();
  await db.schema.dropIndex('nodes_name_search').execute();
}
