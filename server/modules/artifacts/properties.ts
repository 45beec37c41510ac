import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest } from '../../errors.ts';

export type Properties = Record<string, string[]>;

/** `a=1;b=2,3` (the ?properties= form of the storage API) → { a: ['1'], b: ['2', '3'] }. */
export function parsePropertyList(text: string): Properties {
  const properties: Properties = {};
  for (const pair of text.split(';')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    const key = (equals < 0 ? pair : pair.slice(0, equals)).trim();
    if (!key || key.length > 255) throw new BadRequest(`Invalid property '${pair.slice(0, 64)}'`);
    const values = equals < 0 ? [''] : pair.slice(equals + 1).split(',');
    (properties[key] ??= []).push(...values);
  }
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
  const properties: Properties = {};
  for (const row of rows) (properties[row.key] ??= []).push(row.value);
  return properties;
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

export async function deleteProperties(db: Database, nodeIds: number[], keys: string[]) {
  if (nodeIds.length === 0 || keys.length === 0) return;
  await db
    .deleteFrom('node_properties')
    .where('node_id', 'in', nodeIds)
    .where('key', 'in', keys)
    .execute();
}
