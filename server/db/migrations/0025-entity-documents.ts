import { sql, type Kysely } from 'kysely';

/**
 * The schema engine's document store (docs/adding-a-screen.md): one row per document of an
 * entity a descriptor stores, and one audit row per change. Property sets and repository
 * layouts move into it; their tables go. A document's `match_key` is its key as uniqueness
 * compares it (lower-cased for an entity whose keys ignore case), so the primary key itself
 * refuses a second document under the same key, on every node at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entity_documents')
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('match_key', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('document', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('entity_documents_pkey', ['entity', 'match_key'])
    .execute();
  await db.schema
    .createTable('entity_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('entity_audit_by_document')
    .on('entity_audit')
    .columns(['entity', 'key', 'id'])
    .execute();

  await sql`
    insert into entity_documents (entity, match_key, key, document, created_at, updated_at)
    select 'property-set', name, name,
           jsonb_build_object('name', name, 'properties', properties), created_at, updated_at
    from property_sets`.execute(db);
  await sql`
    insert into entity_documents (entity, match_key, key, document, created_at, updated_at)
    select 'repo-layout', lower(name), name,
           jsonb_build_object(
             'name', name,
             'artifactPathPattern', artifact_path_pattern,
             'distinctiveDescriptorPathPattern', distinctive_descriptor_path_pattern,
             'descriptorPathPattern', descriptor_path_pattern,
             'folderIntegrationRevisionRegExp', folder_integration_revision_regexp,
             'fileIntegrationRevisionRegExp', file_integration_revision_regexp),
           created_at, updated_at
    from repo_layouts`.execute(db);
  await db.schema.dropTable('property_sets').execute();
  await db.schema.dropTable('repo_layouts').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('entity_audit').execute();
  await db.schema.dropTable('entity_documents').execute();
}
