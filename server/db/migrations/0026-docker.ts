import { sql, type Kysely } from 'kysely';

/**
 * The Docker/OCI registry (docs/docker.md).
 * - `docker_manifests`: what the protocol needs to know of a manifest stored in a repository's
 *   tree (its media type, artifact type, the `subject` it refers to and its annotations), so
 *   that the referrers API is one indexed query. A manifest exists while a `manifest.json` or
 *   `list.manifest.json` node holds its digest; a row without one is never answered.
 * - `docker_uploads`: blob uploads in progress. Their bytes are a file in the filestore's
 *   upload area named by the id; the row says whose it is and when it was last written, so
 *   any node of a cluster can continue it and expired ones can be swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('docker_manifests')
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('artifact_type', 'text')
    .addColumn('subject', 'text')
    .addColumn('annotations', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('docker_manifests_pk', ['repository_id', 'image', 'digest'])
    .execute();
  await db.schema
    .createIndex('docker_manifests_subject')
    .on('docker_manifests')
    .columns(['repository_id', 'image', 'subject'])
    .where(sql.ref('subject'), 'is not', null)
    .execute();
  await db.schema
    .createTable('docker_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('docker_uploads_updated')
    .on('docker_uploads')
    .column('updated_at')
    .execute();
}
