import type { Kysely } from 'kysely';

/**
 * Properties of a repository itself (Artifactory's "item (file, folder, or repository)"):
 * `PUT /api/storage/{repoKey}?properties=...` attaches them to the repository's root, which
 * has no row in `nodes`. Deleting the repository deletes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('repository_properties')
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('repository_properties_pk', ['repository_id', 'key', 'value'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('repository_properties').execute();
}
