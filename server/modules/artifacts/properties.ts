import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest } from '../../errors.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { escapeLike } from './paths.ts';
import { splitProperty, splitUnescaped, unescapeProperty } from './property-escapes.ts';
import { deletePropertiesWithEvents, emitPropertiesAdded } from '../events/property-events.ts';

export type Properties = Record<string, string[]>;

/**
 * How long a property's name and values may be and how many values it may have, and how much
 * one request may set or delete: every value is a row, and a request's rows are written on
 * every item of its scope (docs/security.md).
 */
export const PROPERTY_LIMITS = {
  maxNameLength: 255,
  maxValueLength: 4000,
  maxValues: 100,
  /** Values of all the keys one request sets, together. */
  maxValuesPerRequest: 250,
  /** Characters of all the names and values one request sets, together. */
  maxCharactersPerRequest: 65536,
  /** Names one request deletes. */
  maxNamesPerDelete: 1000,
};

/**
 * A change to many items is written a page of items at a time, each page in a short
 * transaction of its own, so that other requests' statements run in between: the embedded
 * database serves one statement at a time for everybody. A page holds at most this many
 * rows (items times the values set on each) and this many items.
 */
const ROWS_PER_TRANSACTION = 250;
const ITEMS_PER_PAGE = 200;

/**
 * Characters the scripted form (`?properties=a=1;b=2,3`, and `?properties=a,b` to delete)
 * uses as separators. The console's Properties tab refuses them; the scripted form carries
 * them only escaped (`\,`, property-escapes.ts), as Artifactory does.
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

/**
 * `a=1;b=2,3` (the ?properties= form of the storage API) → { a: ['1'], b: ['2', '3'] }.
 * Pairs are separated by `;` or `|` (Artifactory takes both); `\,` `\;` `\|` `\=` `\\` are
 * plain characters (property-escapes.ts).
 */
export function parsePropertyList(text: string): Properties {
  const properties: Properties = {};
  for (const pair of splitUnescaped(text, ';|')) {
    if (pair.trim() === '') continue;
    const { key, values } = splitProperty(pair);
    if (!key || key.length > PROPERTY_LIMITS.maxNameLength)
      throw new BadRequest(`Invalid property '${pair.slice(0, 64)}'`);
    (properties[key] ??= []).push(...values);
  }
  return properties;
}

/** `a,b` (the names of `?properties=` to read or delete), unescaped, blanks left out. */
export function parsePropertyNames(text: string): string[] {
  return splitUnescaped(text, ',')
    .map((name) => unescapeProperty(name).trim())
    .filter(Boolean);
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

/** Every (key, value) to store, each value once per key. */
function pairsOf(properties: Properties): { keys: string[]; values: string[] } {
  const keys: string[] = [];
  const values: string[] = [];
  for (const [key, list] of Object.entries(properties)) {
    for (const value of new Set(list)) {
      keys.push(key);
      values.push(value);
    }
  }
  return { keys, values };
}

/**
 * Sets the given keys (replacing their values) on the nodes, in a few statements whatever the
 * number of keys, and emits `artifact_property.added` for each (docs/webhooks.md); run inside
 * a transaction. `user` is who sets them.
 */
export async function writeProperties(
  tx: Transaction<DepotDatabase>,
  nodeIds: number[],
  properties: Properties,
  user: string,
) {
  const keys = Object.keys(properties);
  if (nodeIds.length === 0 || keys.length === 0) return;
  // Two changes of one node's properties take turns: the second waits here for the first to
  // commit, and its delete then sees the rows the first wrote, so a key is replaced, never
  // left holding the values of both (PostgreSQL, READ COMMITTED). Not FOR UPDATE: writers
  // below a folder hold it FOR KEY SHARE (tree-writes.ts), which this does not block.
  await sql`select id from nodes where id = any(${nodeIds}::bigint[])
    order by id for no key update`.execute(tx);
  await sql`delete from node_properties
    where node_id = any(${nodeIds}::bigint[]) and key = any(${keys}::text[])`.execute(tx);
  const pairs = pairsOf(properties);
  if (pairs.keys.length === 0) return;
  await sql`insert into node_properties (node_id, key, value)
    select n.id, kv.key, kv.value
    from unnest(${nodeIds}::bigint[]) as n(id)
    cross join unnest(${pairs.keys}::text[], ${pairs.values}::text[]) as kv(key, value)
    on conflict do nothing`.execute(tx);
  await emitPropertiesAdded(tx, nodeIds, properties, user);
}

/** A node a change may reach, as a caller's filter sees it. */
export interface ScopeNode {
  path: string;
  folder: boolean;
}

/** Which of the scope's nodes a change may write (the caller's grant); all when absent. */
export type NodeFilter = (node: ScopeNode) => boolean;

/**
 * The ids of the scope's nodes that `allowed` lets through, a page at a time in path order:
 * each page is one short statement on the (repository, path) index, and a folder of a
 * million files is never held in memory at once.
 */
async function* nodePages(
  db: Database,
  scope: PropertyScope,
  pageSize: number,
  allowed: NodeFilter = () => true,
) {
  const idsOf = (rows: (ScopeNode & { id: string | number | bigint })[]) =>
    rows.filter(allowed).map((row) => Number(row.id));
  if (scope.path !== '') {
    const self = await db
      .selectFrom('nodes')
      .select(['id', 'path', 'folder'])
      .where('repository_id', '=', scope.repositoryId)
      .where('path', '=', scope.path)
      .executeTakeFirst();
    if (self && idsOf([self]).length > 0) yield idsOf([self]);
  }
  if (!scope.recursive) return;
  // Everything below the folder sorts after its own path; the root's items after ''.
  let after = scope.path;
  for (;;) {
    const rows = await db
      .selectFrom('nodes')
      .select(['id', 'path', 'folder'])
      .where('repository_id', '=', scope.repositoryId)
      .$if(scope.path !== '', (q) => q.where('path', 'like', `${escapeLike(scope.path)}/%`))
      .where('path', '>', after)
      .orderBy('path')
      .limit(pageSize)
      .execute();
    const ids = idsOf(rows);
    if (ids.length > 0) yield ids;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].path;
  }
}

/** Items per page for a change writing `rowsPerItem` rows on each. */
const pageSizeFor = (rowsPerItem: number) =>
  Math.max(
    1,
    Math.min(ITEMS_PER_PAGE, Math.floor(ROWS_PER_TRANSACTION / Math.max(1, rowsPerItem))),
  );

/**
 * Sets the given keys (replacing their values) on every node of the scope, and on the
 * repository itself when the scope is its root. A page of nodes at a time, each in its own
 * transaction: a folder of a million files costs a million rows' work, but no statement
 * holds the database for long. If it fails midway, the pages done keep the change; setting
 * again finishes it (docs/security.md). Only the nodes `allowed` lets through are written.
 */
export async function setPropertiesInScope(
  db: Database,
  scope: PropertyScope,
  properties: Properties,
  user: string,
  allowed?: NodeFilter,
) {
  // Each transaction runs again when a concurrent change of the same rows made PostgreSQL
  // refuse it (a deadlock); its insert skips rows a concurrent change already wrote.
  if (scope.path === '')
    await retryTransaction(() =>
      db.transaction().execute((tx) => replaceRootProperties(tx, scope.repositoryId, properties)),
    );
  const pageSize = pageSizeFor(pairsOf(properties).keys.length);
  for await (const nodeIds of nodePages(db, scope, pageSize, allowed))
    await retryTransaction(() =>
      db.transaction().execute((tx) => writeProperties(tx, nodeIds, properties, user)),
    );
}

/**
 * Deletes the given keys from every node of the scope, a page of nodes at a time, each key a
 * node had reported as `artifact_property.deleted`; keys no node has are no error. Only the nodes `allowed` lets through are changed.
 */
export async function deletePropertiesInScope(
  db: Database,
  scope: PropertyScope,
  keys: string[],
  user: string,
  allowed?: NodeFilter,
) {
  if (keys.length === 0) return;
  if (scope.path === '')
    await db
      .deleteFrom('repository_properties')
      .where('repository_id', '=', scope.repositoryId)
      .where('key', 'in', keys)
      .execute();
  // Each page's rows go with their events in one statement (docs/webhooks.md).
  for await (const nodeIds of nodePages(db, scope, ITEMS_PER_PAGE, allowed))
    await deletePropertiesWithEvents(db, nodeIds, keys, user);
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

async function replaceRootProperties(
  tx: Transaction<DepotDatabase>,
  repositoryId: number,
  properties: Properties,
) {
  const keys = Object.keys(properties);
  if (keys.length === 0) return;
  await tx
    .deleteFrom('repository_properties')
    .where('repository_id', '=', repositoryId)
    .where('key', 'in', keys)
    .execute();
  const pairs = pairsOf(properties);
  const rows = pairs.keys.map((key, i) => ({
    repository_id: repositoryId,
    key,
    value: pairs.values[i],
  }));
  if (rows.length > 0)
    await tx
      .insertInto('repository_properties')
      .values(rows)
      .onConflict((c) => c.doNothing())
      .execute();
}
