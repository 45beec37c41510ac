import { sql, type Kysely } from 'kysely';

/**
 * Items' content looked up with their repository in the index itself (docs/backup.md,
 * "Ninth round"): a backup's blob rows are those an item of a covered repository uses, read
 * in SHA-256 order by a merge of `blobs`' primary key with this index, an index-only scan
 * that streams from its first row. Over `nodes (sha256)` alone the merge fetched every item's
 * row to check its repository, so the database hashed and sorted every blob row instead,
 * before handing back the first. It replaces `nodes_sha256`: every look-up by content alone
 * uses its leading column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index nodes_sha256_repository on nodes (sha256, repository_id)`.execute(db);
  await sql`drop index nodes_sha256`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index nodes_sha256 on nodes (sha256)`.execute(db);
  await sql`drop index nodes_sha256_repository`.execute(db);
}
