import type { NodeView } from '../../server/modules/cluster/service.ts';
import { call, http } from './client';

/** The service-status calls live at the mission-control base (spec 03 §7). */
const missionControl = http.extend({ prefixUrl: '/mc/api/v1' });
/** Removing a node is Access's topology call, at the root. */
const access = http.extend({ prefixUrl: '/' });

export type ClusterNode = NodeView;

/** `GET /ui/api/v1/system/logs/config/{service}` (docs/logs.md). */
export interface LogConfig {
  logs: string[];
  refresh_rate_millis?: number;
}

/** `GET /ui/api/v1/system/logs/data/{service}`: the text from `file_size` on. */
export interface LogData {
  log_content: string;
  file_size: number;
  last_update_modified: number;
  last_update_label: string;
}

export interface LogTarget {
  service: string;
  nodeId: string;
}

export const systemLogsApi = {
  nodes: () => call<ClusterNode[]>('GET', '/system/status/nodes', {}, missionControl),
  /** `GET /mc/api/v1/system/status/ha`: services to their nodes. */
  services: () =>
    call<Record<string, ClusterNode[]>>('GET', '/system/status/ha', {}, missionControl),
  /** `DELETE /access/api/v1/topology/{service_id}/{node_id}`: a node that stopped. */
  removeNode: ({ serviceId, nodeId }: { serviceId: string; nodeId: string }) =>
    call<{ removed: string }>(
      'DELETE',
      `/access/api/v1/topology/${encodeURIComponent(serviceId)}/${encodeURIComponent(nodeId)}`,
      {},
      access,
    ),
  config: ({ service, nodeId }: LogTarget) =>
    call<LogConfig>('GET', `/system/logs/config/${encodeURIComponent(service)}`, {
      searchParams: { nodeId },
    }),
  data: ({ service, nodeId, id, offset }: LogTarget & { id: string; offset: number }) =>
    call<LogData>('GET', `/system/logs/data/${encodeURIComponent(service)}`, {
      searchParams: { nodeId, id, file_size: offset },
    }),
};
