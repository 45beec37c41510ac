import { sql, type Kysely } from 'kysely';

/**
 * A blob's SHA-512, beside its other checksums: OCI clients may name content by a `sha512:`
 * digest (docs/docker.md, "Digests"). The filestore stays addressed by SHA-256; the column is
 * filled when content arrives under a SHA-512 digest, and looked up to serve it by that digest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('blobs').addColumn('sha512', 'text').execute();
  await sql`create index blobs_sha512 on blobs (sha512) where sha512 is not null`.execute(db);
}
