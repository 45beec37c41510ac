/** The topology page's texts; quoted ones are spec 03 verbatim ("Topology", §8). */
export const TOPOLOGY_LABELS = {
  title: 'Topology',
  smallScreen:
    'The current screen is insufficient to display the map. Please increase the screen size',
  notInList:
    'The Platform Deployment is not available in the list. Hence loading the Home Platform Deployment',
  unitsFailed: 'Unable to fetch the list of units',
  /** Spec 03 §3 Platform deployment: the PARTIAL status's message. */
  someOffline: 'Some services are offline',
  storageFailed: 'Unable to fetch Storage data',
  deployment: 'Platform deployment',
  home: 'Home',
  nodes: 'Nodes',
  node: 'Node',
  thisNode: '(this node)',
  host: 'Host',
  version: 'Version',
  database: 'Database',
  filestore: 'Filestore',
  diskUsed: (used: string, total: string) => `${used} of ${total} used`,
  free: (free: string) => `${free} free`,
  binaries: (count: string, size: string) => `${count} binaries, ${size}`,
  artifacts: (count: string, size: string) => `${count} artifacts, ${size}`,
  replication: 'Replication',
  federation: 'Federation',
  noneConfigured: 'None configured',
  summary: (name: string, status: string, online: number, total: number) =>
    `Platform deployment ${name}: ${status}, ${online} of ${total} nodes online.`,
  serviceStatus: 'Service Status',
  storageSummary: 'Storage Summary',
  loading: 'Loading…',
} as const;

/** The home deployment's id in the route (`/admin/mission_control/topology/home`). */
export const HOME_DEPLOYMENT_ID = 'home';
