import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { TRASH_REPO_KEY } from '../trash/trash-key.ts';

type Tx = Transaction<DepotDatabase>;

/** The payload's `data` of a property event, built from a node and its repository. */
const propertyData = (values: ReturnType<typeof sql>) => sql`jsonb_build_object(
  'repo_key', r.key, 'path', n.path, 'name', n.name, 'sha256', n.sha256,
  'size', n.size, 'property_key', p.key, 'property_values', ${values})`;

/**
 * `artifact_property.added` for each key set on each node, inside the transaction that sets
 * them: one statement whatever the number of nodes. The trash can's own bookkeeping emits
 * nothing (docs/webhooks.md).
 */
export async function emitPropertiesAdded(
  tx: Tx,
  nodeIds: number[],
  properties: Record<string, string[]>,
  user: string,
) {
  const values = Object.fromEntries(
    Object.entries(properties).map(([key, list]) => [key, [...new Set(list)]]),
  );
  await sql`insert into event_outbox (domain, event_type, repo_key, path, data, source)
    select 'artifact_property', 'added', r.key, n.path, ${propertyData(sql`p.vals`)}, ${user}
    from nodes n
    join repositories r on r.id = n.repository_id
    cross join jsonb_each(${JSON.stringify(values)}::jsonb) as p(key, vals)
    where n.id = any(${nodeIds}::bigint[]) and lower(r.key) <> ${TRASH_REPO_KEY}
    order by n.id, p.key`.execute(tx);
}

/**
 * Deletes keys from the nodes and emits `artifact_property.deleted` for each key a node had,
 * with the values it had, in one statement: the rows and their events go together or not at
 * all, inside a transaction or not.
 */
export async function deletePropertiesWithEvents(
  executor: Database | Tx,
  nodeIds: number[],
  keys: string[],
  user: string,
) {
  await sql`with gone as (
      delete from node_properties
      where node_id = any(${nodeIds}::bigint[]) and key = any(${keys}::text[])
      returning node_id, key, value),
    grouped as (
      select node_id, key, jsonb_agg(value order by value) as vals from gone group by node_id, key)
    insert into event_outbox (domain, event_type, repo_key, path, data, source)
    select 'artifact_property', 'deleted', r.key, n.path, ${propertyData(sql`p.vals`)}, ${user}
    from grouped p
    join nodes n on n.id = p.node_id
    join repositories r on r.id = n.repository_id
    where lower(r.key) <> ${TRASH_REPO_KEY}
    order by n.id, p.key`.execute(executor);
}
