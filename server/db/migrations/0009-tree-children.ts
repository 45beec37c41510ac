import { sql, type Kysely } from 'kysely';

/**
 * The tree browser lists a folder's children folders first, then files, each by name, a
 * page at a time from where the last page ended. This index answers each page by a range
 * scan, whatever the folder's size; `nodes_children` alone would filter folders out of
 * every file of a folder of 100,000 files. Names order by byte (collation "C"), whatever
 * the database's locale, so that pages, and the merge of a virtual repository's members,
 * come in one order everywhere.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index nodes_children_by_kind
    on nodes (repository_id, parent_path, folder, name collate "C")`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('nodes_children_by_kind').execute();
}
