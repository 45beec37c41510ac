import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

type Db = Database;

export interface NodeRow {
  id: string;
  host: string;
  version: string;
  started_at: Date;
  last_heartbeat: Date;
  heartbeat_seconds: number;
  health: Record<string, string>;
  /** The database's clock at the read, so a node's age never depends on this node's clock. */
  now: Date;
}

/** A node's row at its start: a node that restarts under the same id starts afresh. */
export async function registerNode(
  db: Db,
  node: { id: string; host: string; version: string; heartbeatSeconds: number },
  health: Record<string, string>,
) {
  const row = {
    host: node.host,
    version: node.version,
    started_at: sql<Date>`now()`,
    last_heartbeat: sql<Date>`now()`,
    heartbeat_seconds: node.heartbeatSeconds,
    health: JSON.stringify(health),
  };
  await db
    .insertInto('cluster_nodes')
    .values({ id: node.id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** A heartbeat; writes the row back if an admin removed it while this node was cut off. */
export async function beat(
  db: Db,
  node: { id: string; host: string; version: string; heartbeatSeconds: number },
  startedAt: Date,
  health: Record<string, string>,
) {
  const row = {
    host: node.host,
    version: node.version,
    last_heartbeat: sql<Date>`now()`,
    heartbeat_seconds: node.heartbeatSeconds,
    health: JSON.stringify(health),
  };
  await db
    .insertInto('cluster_nodes')
    .values({ id: node.id, started_at: startedAt, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

export async function listNodes(db: Db): Promise<NodeRow[]> {
  return db
    .selectFrom('cluster_nodes')
    .selectAll()
    .select(sql<Date>`now()`.as('now'))
    .orderBy('id')
    .execute();
}

/** Removes a node's row; whether there was one. */
export async function removeNode(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('cluster_nodes').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
