import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { EntityDocument } from './documents.ts';

type Db = Database | Transaction<DepotDatabase>;

export interface StoredDocument {
  key: string;
  document: EntityDocument;
}

export interface ListQuery {
  offset: number;
  limit?: number;
  /** A top-level field; the key when not given. */
  sort?: string;
  descending: boolean;
  /** Part of the key, any case. */
  search?: string;
  /** Top-level fields whose values must equal these (compared as text). */
  equals: Record<string, string>;
}

function filtered(db: Db, entity: string, query: Pick<ListQuery, 'search' | 'equals'>) {
  let select = db.selectFrom('entity_documents').where('entity', '=', entity);
  if (query.search)
    select = select.where('key', 'ilike', `%${query.search.replace(/[\\%_]/g, '\\$&')}%`);
  for (const [field, value] of Object.entries(query.equals))
    select = select.where(sql`document->>${field}`, '=', value);
  return select;
}

/** One page of an entity's documents, and how many match in all. */
export async function listDocuments(db: Db, entity: string, query: ListQuery) {
  const direction = query.descending ? sql`desc` : sql`asc`;
  const order = query.sort ? sql`document->${query.sort}` : sql`key`;
  let page = filtered(db, entity, query)
    .select(['key', 'document'])
    .orderBy(sql`${order} ${direction}`)
    .orderBy('key')
    .offset(query.offset);
  if (query.limit !== undefined) page = page.limit(query.limit);
  const [rows, count] = await Promise.all([
    page.execute(),
    filtered(db, entity, query)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as StoredDocument[], total: Number(count.total) };
}

export async function findDocument(
  db: Db,
  entity: string,
  matchKey: string,
  lock = false,
): Promise<StoredDocument | undefined> {
  let select = db
    .selectFrom('entity_documents')
    .select(['key', 'document'])
    .where('entity', '=', entity)
    .where('match_key', '=', matchKey);
  if (lock) select = select.forUpdate();
  return (await select.executeTakeFirst()) as StoredDocument | undefined;
}

export async function findDocuments(db: Db, entity: string, matchKeys: string[]) {
  if (matchKeys.length === 0) return [];
  const rows = await db
    .selectFrom('entity_documents')
    .select(['key', 'match_key', 'document'])
    .where('entity', '=', entity)
    .where('match_key', 'in', matchKeys)
    .execute();
  return rows as (StoredDocument & { match_key: string })[];
}

export async function insertDocument(
  db: Db,
  entity: string,
  matchKey: string,
  key: string,
  document: EntityDocument,
) {
  await db
    .insertInto('entity_documents')
    .values({ entity, match_key: matchKey, key, document: JSON.stringify(document) })
    .execute();
}

export async function replaceDocument(
  db: Db,
  entity: string,
  matchKey: string,
  document: EntityDocument,
) {
  await db
    .updateTable('entity_documents')
    .set({ document: JSON.stringify(document), updated_at: new Date() })
    .where('entity', '=', entity)
    .where('match_key', '=', matchKey)
    .execute();
}

export async function deleteDocuments(db: Db, entity: string, matchKeys: string[]) {
  await db
    .deleteFrom('entity_documents')
    .where('entity', '=', entity)
    .where('match_key', 'in', matchKeys)
    .execute();
}

/** A settings document (the `settings` table, one row per name), locked for the update. */
export async function lockSettings(db: Db, name: string): Promise<EntityDocument | undefined> {
  // The row exists before it is locked, so that two first saves wait for each other.
  await db
    .insertInto('settings')
    .values({ key: name, value: '{}' })
    .onConflict((c) => c.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', name)
    .forUpdate()
    .executeTakeFirst();
  return row?.value as EntityDocument | undefined;
}

export async function readSettings(db: Db, name: string): Promise<EntityDocument | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', name)
    .executeTakeFirst();
  return row?.value as EntityDocument | undefined;
}

export async function writeSettings(db: Db, name: string, document: EntityDocument) {
  const value = JSON.stringify(document);
  await db
    .insertInto('settings')
    .values({ key: name, value })
    .onConflict((c) => c.column('key').doUpdateSet({ value }))
    .execute();
}

export interface AuditEntry {
  entity: string;
  key: string;
  action: 'create' | 'update' | 'delete';
  actor: string;
  changes: Record<string, unknown>;
}

export async function insertAudit(db: Db, entries: AuditEntry[]) {
  if (entries.length === 0) return;
  await db
    .insertInto('entity_audit')
    .values(entries.map((entry) => ({ ...entry, changes: JSON.stringify(entry.changes) })))
    .execute();
}

/** An entity's audit trail, newest first; one document's when `key` is given. */
export async function listAudit(db: Db, entity: string, key?: string) {
  let select = db
    .selectFrom('entity_audit')
    .select(['key', 'action', 'actor', 'at', 'changes'])
    .where('entity', '=', entity);
  if (key !== undefined) select = select.where('key', '=', key);
  return select.orderBy('id', 'desc').execute();
}
