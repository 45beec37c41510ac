import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest } from '../../errors.ts';
import { escapeLike } from './paths.ts';

export type Properties = Record<string, string[]>;

/** How long a property's name and values may be, and how many values it may have. */
export const PROPERTY_LIMITS = { maxNameLength: 255, maxValueLength: 4000, maxValues: 100 };

/**
 * Characters the scripted form (`?properties=a=1;b=2,3`, and `?properties=a,b` to delete)
 * uses as separators: a property holding one could not be written or deleted back through
 * it, so no call stores one.
 */
export const FORBIDDEN_IN_PROPERTY = { name: [';', '=', ','], value: [';', ','] } as const;

/**
 * The node at `path` of a repository, and with `recursive` every node below it too. The
 * repository's root (`path` ''), which has no node, keeps its own in `repository_properties`.
 */
export interface PropertyScope {
  repositoryId: number;
  path: string;
  recursive: boolean;
}

/** `a=1;b=2,3` (the ?properties= form of the storage API) → { a: ['1'], b: ['2', '3'] }. */
export function parsePropertyList(text: string): Properties {
  const properties: Properties = {};
  for (const pair of text.split(';')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    const key = (equals < 0 ? pair : pair.slice(0, equals)).trim();
    if (!key || key.length > PROPERTY_LIMITS.maxNameLength)
      throw new BadRequest(`Invalid property '${pair.slice(0, 64)}'`);
    const values = equals < 0 ? [''] : pair.slice(equals + 1).split(',');
    (properties[key] ??= []).push(...values);
  }
  return properties;
}

/** Rows of key and value, ordered, as { key: [values] }. */
function grouped(rows: { key: string; value: string }[]): Properties {
  const properties: Properties = {};
  for (const row of rows) (properties[row.key] ??= []).push(row.value);
  return properties;
}

export async function readProperties(db: Database, nodeId: number): Promise<Properties> {
  const rows = await db
    .selectFrom('node_properties')
    .select(['key', 'value'])
    .where('node_id', '=', nodeId)
    .orderBy('key')
    .orderBy('value')
    .execute();
  return grouped(rows);
}

/** Sets the given keys (replacing their values) on the nodes; run inside a transaction. */
export async function writeProperties(
  tx: Transaction<DepotDatabase>,
  nodeIds: number[],
  properties: Properties,
) {
  if (nodeIds.length === 0) return;
  for (const [key, values] of Object.entries(properties)) {
    await tx
      .deleteFrom('node_properties')
      .where('node_id', 'in', nodeIds)
      .where('key', '=', key)
      .execute();
    const rows = nodeIds.flatMap((node_id) =>
      [...new Set(values)].map((value) => ({ node_id, key, value })),
    );
    if (rows.length > 0) await tx.insertInto('node_properties').values(rows).execute();
  }
}

/** The scope's condition on `nodes` (aliased `n`): one index range scan, no ids in memory. */
function inScope(scope: PropertyScope) {
  if (scope.path === '')
    return scope.recursive ? sql`n.repository_id = ${scope.repositoryId}` : sql`false`;
  const self = sql`n.repository_id = ${scope.repositoryId} and n.path = ${scope.path}`;
  if (!scope.recursive) return self;
  return sql`n.repository_id = ${scope.repositoryId}
    and (n.path = ${scope.path} or n.path like ${`${escapeLike(scope.path)}/%`})`;
}

/**
 * Replaces one property's values on every node of the scope, in SQL: a folder of a million
 * files costs two statements, never its rows in memory. Run inside a transaction.
 */
export async function replacePropertyInScope(
  tx: Transaction<DepotDatabase>,
  scope: PropertyScope,
  key: string,
  values: string[],
) {
  if (scope.path === '') await replaceRootProperty(tx, scope.repositoryId, key, values);
  await sql`delete from node_properties where key = ${key}
    and node_id in (select n.id from nodes n where ${inScope(scope)})`.execute(tx);
  await sql`insert into node_properties (node_id, key, value)
    select n.id, ${key}, v.value
    from nodes n cross join (select distinct unnest(${values}::text[]) as value) v
    where ${inScope(scope)}`.execute(tx);
}

/** Deletes the given keys from every node of the scope; keys no node has are no error. */
export async function deletePropertiesInScope(db: Database, scope: PropertyScope, keys: string[]) {
  if (keys.length === 0) return;
  if (scope.path === '')
    await db
      .deleteFrom('repository_properties')
      .where('repository_id', '=', scope.repositoryId)
      .where('key', 'in', keys)
      .execute();
  await sql`delete from node_properties where key = any(${keys}::text[])
    and node_id in (select n.id from nodes n where ${inScope(scope)})`.execute(db);
}

/** The properties of a repository itself (of its root). */
export async function readRootProperties(db: Database, repositoryId: number): Promise<Properties> {
  const rows = await db
    .selectFrom('repository_properties')
    .select(['key', 'value'])
    .where('repository_id', '=', repositoryId)
    .orderBy('key')
    .orderBy('value')
    .execute();
  return grouped(rows);
}

async function replaceRootProperty(
  tx: Transaction<DepotDatabase>,
  repositoryId: number,
  key: string,
  values: string[],
) {
  await tx
    .deleteFrom('repository_properties')
    .where('repository_id', '=', repositoryId)
    .where('key', '=', key)
    .execute();
  const rows = [...new Set(values)].map((value) => ({ repository_id: repositoryId, key, value }));
  if (rows.length > 0) await tx.insertInto('repository_properties').values(rows).execute();
}
