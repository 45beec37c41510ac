import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { storageSummaryApi, type StorageSummary } from '../../api/storageSummary';
import { systemLogsApi, type ClusterNode } from '../../api/systemLogs';
import { TOPOLOGY_LABELS as L } from './messages';

/** Spec 03 §3: the statuses of a platform deployment and its units. */
export type TopologyStatus = 'ONLINE' | 'PARTIAL' | 'OFFLINE' | 'UNAUTHORIZED' | 'UNAVAILABLE';

export const pageMounted = createEvent();

export const fetchNodesFx = createEffect(systemLogsApi.nodes);
export const fetchStorageFx = createEffect(storageSummaryApi.get);

export const $nodes = createStore<ClusterNode[] | null>(null).on(
  fetchNodesFx.doneData,
  (_, nodes) => nodes,
);
export const $storage = createStore<StorageSummary | null>(null).on(
  fetchStorageFx.doneData,
  (_, summary) => summary,
);
export const $nodesError = createStore<string | null>(null)
  .on(fetchNodesFx.failData, (_, error) => errorMessage(error, L.unitsFailed))
  .reset(fetchNodesFx);
export const $storageError = createStore<string | null>(null)
  .on(fetchStorageFx.failData, (_, error) => errorMessage(error, L.storageFailed))
  .reset(fetchStorageFx);

// when the page opens, load the nodes and the storage figures
sample({ clock: pageMounted, target: [fetchNodesFx, fetchStorageFx] });

/**
 * A deployment is ONLINE when every node is, PARTIAL when some are, OFFLINE when none is;
 * UNAVAILABLE while nothing is known of its nodes.
 */
export function deploymentStatus(nodes: ClusterNode[] | null): TopologyStatus {
  if (!nodes || nodes.length === 0) return 'UNAVAILABLE';
  const online = nodes.filter((node) => node.status === 'ONLINE').length;
  if (online === nodes.length) return 'ONLINE';
  return online > 0 ? 'PARTIAL' : 'OFFLINE';
}

/** What a status says beside its badge: PARTIAL's message (spec 03 §3), else nothing. */
export function statusMessage(status: TopologyStatus): string | undefined {
  return status === 'PARTIAL' ? L.someOffline : undefined;
}

/** A part (database, filestore) as the online nodes measured it: the worst of them. */
export function partStatus(nodes: ClusterNode[] | null, part: string): TopologyStatus {
  const measured = (nodes ?? [])
    .filter((node) => node.status === 'ONLINE')
    .map((node) => node.health[part] as TopologyStatus | undefined)
    .filter((status): status is TopologyStatus => status !== undefined);
  if (measured.length === 0) return 'UNAVAILABLE';
  if (measured.every((status) => status === 'ONLINE')) return 'ONLINE';
  return measured.some((status) => status === 'ONLINE') ? 'PARTIAL' : 'OFFLINE';
}
