import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { EntityDocument } from '../entities/documents.ts';

type Db = Database | Transaction<DepotDatabase>;

/** The engine entity the buckets are documents of. */
export const BUCKET_ENTITY = 'license-bucket';

/**
 * A bucket's document without its sealed file: lists, counts and changes never need the
 * file (up to 13 MB), so it stays in the database unless a download asks for it.
 */
const withoutFile = sql<EntityDocument>`document - 'signedFile'`.as('document');

const buckets = (db: Db) =>
  db.selectFrom('entity_documents').select(withoutFile).where('entity', '=', BUCKET_ENTITY);

/** Every bucket, or the splits of one, by identifier. */
export async function listBucketDocuments(db: Db, parent?: string): Promise<EntityDocument[]> {
  let select = buckets(db);
  if (parent !== undefined) select = select.where(sql`document->>'parent'`, '=', parent);
  const rows = await select.orderBy('key').execute();
  return rows.map((row) => row.document);
}

/** One bucket, locked until the transaction ends when `lock` (a change reads, then writes). */
export async function findBucketDocument(db: Db, id: string, lock = false) {
  let select = buckets(db).where('match_key', '=', id);
  if (lock) select = select.forUpdate();
  return (await select.executeTakeFirst())?.document;
}

/** Whether a bucket has this name: names are unique among buckets, splits included. */
export async function bucketNameTaken(db: Db, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('entity_documents')
    .select('key')
    .where('entity', '=', BUCKET_ENTITY)
    .where(sql`document->>'name'`, '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/** Lays `fields` over a bucket's document; the sealed file it holds is not read or rewritten. */
export async function patchBucketDocument(db: Db, id: string, fields: EntityDocument) {
  await db
    .updateTable('entity_documents')
    .set({
      document: sql`document || ${JSON.stringify(fields)}::jsonb`,
      updated_at: new Date(),
    })
    .where('entity', '=', BUCKET_ENTITY)
    .where('match_key', '=', id)
    .execute();
}
