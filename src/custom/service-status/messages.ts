/** The service status page's texts (spec 03 "Topology and service status"). */
export const SERVICE_STATUS_PATH = '/admin/monitoring/service-status';

/** Service ids as the calls give them, by the name the console shows. */
export const SERVICE_NAMES: Record<string, string> = { artifactory: 'Depot' };

export const SERVICE_STATUS_LABELS = {
  title: 'Service Status',
  noServices: 'No service has a node online',
  node: 'Node',
  status: 'Status',
  host: 'Host',
  version: 'Version',
  lastHeartbeat: 'Last Heartbeat',
  uptime: 'Uptime',
  database: 'Database',
  filestore: 'Filestore',
  jobs: 'Jobs',
  actions: 'Actions',
  thisNode: '(this node)',
  remove: 'Remove',
  removeTitle: 'Remove Node',
  removeText: (node: string) =>
    `Remove node ${node} from the cluster? It stopped sending heartbeats; if it starts again it adds itself back.`,
  cancel: 'Cancel',
  removed: (node: string) => `Node ${node} was removed`,
  removeFailed: 'Failed to remove the node',
};

const UNITS: Array<[string, number]> = [
  ['d', 86400000],
  ['h', 3600000],
  ['m', 60000],
  ['s', 1000],
];

/** An uptime in its two largest units (spec 03): `2d 3h`, `5m 12s`, `12s`. */
export function humanUptime(ms: number): string {
  let rest = Math.max(0, Math.floor(ms / 1000) * 1000);
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    if (parts.length === 2) break;
  }
  return parts.length ? parts.join(' ') : '0s';
}
