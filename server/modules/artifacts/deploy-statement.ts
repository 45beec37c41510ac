import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { StoredBlob } from '../../storage/filestore.ts';
import { outboxRow, type OutboxEvent } from '../events/outbox.ts';
import { ancestorsOf } from './paths.ts';
import { fileRow } from './tree-writes.ts';

/** A file's row as a deploy answers it. */
export interface PlacedFile {
  id: string;
  created_at: Date;
  created_by: string;
  modified_at: Date;
  mime_type: string | null;
}

/** What the one statement writes. */
export interface OneStatementDeploy {
  repositoryId: number;
  path: string;
  /** Content already put in place, its row claimed before (a preclaim). */
  blob: StoredBlob;
  user: string;
  /** A file already at the path stays: nothing is written (the caller's transaction decides). */
  keepExistingFile: boolean;
  /** The outbox rows of the change, already narrowed to what subscribers want (outbox.ts). */
  events: OutboxEvent[];
}

/**
 * A deploy's database work in one statement, outside any transaction: the blob's row claimed,
 * the file's folders held, its row written and its events put in the outbox, all or nothing,
 * in one round trip to the database (where a transaction of the same takes six: `begin`, the
 * claim, the hold, the row, the event, `commit`; on the embedded database a transaction also
 * holds the one session everybody shares from `begin` to `commit`). The rules of tree-writes.ts
 * and of the deploy (service.ts, `storeFile`) hold as they do there:
 *
 * - the blob's row is claimed by an update (its lock keeps garbage collection off it until the
 *   statement commits); a row collection removed since the preclaim answers nothing, and the
 *   file is not written;
 * - every folder above the file is held `FOR KEY SHARE`, outermost first, before the file's
 *   row is written; the row is written only when all of them are there and are folders;
 * - the file's row is written `ON CONFLICT DO UPDATE ... WHERE folder = false` (or `DO NOTHING`
 *   when an existing file stays), so a folder at the path writes nothing;
 * - the events are written from the file's row as the statement returns it: no row, no event.
 *
 * Anything else (a folder to make, a folder or file in the way, the blob's row gone, a file
 * to keep) answers undefined having written nothing but the claim's touch: the caller then
 * runs the transaction that makes folders, puts the blob back and answers the right refusal.
 */
export async function deployInOneStatement(
  db: Database,
  deploy: OneStatementDeploy,
): Promise<PlacedFile | undefined> {
  const { repositoryId, path, blob, user } = deploy;
  const ancestors = ancestorsOf(path);
  const row = fileRow(repositoryId, path, blob, user, new Date());
  const onConflict = deploy.keepExistingFile
    ? sql`do nothing`
    : sql`do update set sha256 = excluded.sha256, size = excluded.size,
        mime_type = excluded.mime_type, modified_at = excluded.modified_at,
        modified_by = excluded.modified_by
      where nodes.folder = false`;
  const result = await sql<PlacedFile>`with claimed as (
      update blobs set md5 = coalesce(md5, ${blob.md5 ?? null}),
        sha512 = coalesce(sha512, ${blob.sha512 ?? null}), touched_at = now()
      where sha256 = ${blob.sha256}
      returning sha256),
    held as materialized (
      select folder from nodes
      where repository_id = ${repositoryId} and path = any(${ancestors}::text[])
      order by length(path)
      for key share),
    written as (
      insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
        mime_type, created_at, created_by, modified_at, modified_by)
      select ${row.repository_id}::integer, ${row.path}::text, ${row.parent_path}::text,
        ${row.name}::text, false, ${row.sha256}::text, ${row.size}::bigint,
        ${row.mime_type}::text, ${row.created_at}::timestamptz, ${row.created_by}::text,
        ${row.modified_at}::timestamptz, ${row.modified_by}::text
      where exists (select from claimed)
        and (select count(*) filter (where folder) from held) = ${ancestors.length}
      on conflict (repository_id, path) ${onConflict}
      returning id, created_at, created_by, modified_at, mime_type)${outboxInserts(deploy.events)}
    select * from written`.execute(db);
  return result.rows[0];
}

/** The events' outbox rows, as CTEs written only with the file's row. */
function outboxInserts(events: OutboxEvent[]) {
  if (events.length === 0) return sql``;
  const rows = events.map((event) => {
    const row = outboxRow(event);
    return sql`(${row.domain}, ${row.event_type}, ${row.repo_key}, ${row.target_repo_key},
      ${row.path}, ${row.data}::jsonb, ${row.source})`;
  });
  return sql`,
    emitted as (
      insert into event_outbox (domain, event_type, repo_key, target_repo_key, path, data, source)
      select e.* from (values ${sql.join(rows)})
        as e(domain, event_type, repo_key, target_repo_key, path, data, source)
      where exists (select from written))`;
}
