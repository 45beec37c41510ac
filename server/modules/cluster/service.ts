import type { Database } from '../../db/database.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { NodeStatus } from './heartbeat.ts';
import { listNodes, removeNode, type NodeRow } from './queries.ts';

/** Depot's one service, by the id the spec's URLs use; the console names it Depot. */
export const DEPOT_SERVICE_ID = 'artifactory';

/** Heartbeats a node may miss before it counts as OFFLINE: one late beat is not a death. */
export const MISSED_HEARTBEATS_OFFLINE = 3;

export interface NodeView {
  service_id: string;
  node_id: string;
  host: string;
  version: string;
  status: NodeStatus;
  /** Whether this is the node that answered the request. */
  local: boolean;
  start_time: string;
  micro_services: Record<string, { status: NodeStatus; last_heartbeat: string; uptime: number }>;
  /** Database, filestore and jobs as the node measured them; UNAVAILABLE once it is OFFLINE. */
  health: Record<string, NodeStatus>;
}

function viewOf(row: NodeRow, localId: string): NodeView {
  const silentMs = row.now.getTime() - row.last_heartbeat.getTime();
  const online = silentMs <= MISSED_HEARTBEATS_OFFLINE * row.heartbeat_seconds * 1000;
  const status: NodeStatus = online ? 'ONLINE' : 'OFFLINE';
  const health = Object.fromEntries(
    Object.entries(row.health).map(([part, measured]) => [
      part,
      online ? (measured as NodeStatus) : 'UNAVAILABLE',
    ]),
  );
  return {
    service_id: DEPOT_SERVICE_ID,
    node_id: row.id,
    host: row.host,
    version: row.version,
    status,
    local: row.id === localId,
    start_time: row.started_at.toISOString(),
    micro_services: {
      [DEPOT_SERVICE_ID]: {
        status,
        last_heartbeat: row.last_heartbeat.toISOString(),
        // Since its start, up to now while it beats, up to its last beat once it stopped.
        uptime: (online ? row.now : row.last_heartbeat).getTime() - row.started_at.getTime(),
      },
    },
    health,
  };
}

/** The cluster's nodes as the heartbeats in the database show them (docs/service-status.md). */
export function createClusterStatus(db: Database, localNodeId: string) {
  return {
    localNodeId,
    async nodes(): Promise<NodeView[]> {
      return (await listNodes(db)).map((row) => viewOf(row, localNodeId));
    },
    /** Removes a node that stopped; a live one would only write itself back. */
    async remove(serviceId: string, nodeId: string) {
      if (serviceId !== DEPOT_SERVICE_ID) throw new NotFound(`Service '${serviceId}' not found`);
      if (nodeId === localNodeId)
        throw new Conflict(
          `Node '${nodeId}' answered this request: a running node cannot be removed`,
        );
      const node = (await this.nodes()).find((candidate) => candidate.node_id === nodeId);
      if (!node) throw new NotFound(`Node '${nodeId}' not found`);
      if (node.status === 'ONLINE')
        throw new Conflict(
          `Node '${nodeId}' is online: only a node that stopped sending heartbeats can be removed`,
        );
      await removeNode(db, nodeId);
    },
  };
}

export type ClusterStatus = ReturnType<typeof createClusterStatus>;
