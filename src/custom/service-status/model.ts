import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { systemLogsApi, type ClusterNode } from '../../api/systemLogs';
import { notificationShown } from '../../shell/notifications/model';
import { SERVICE_STATUS_LABELS as L } from './messages';

export const pageMounted = createEvent();
export const removeClicked = createEvent<ClusterNode>();
export const removeConfirmed = createEvent();
export const removeCancelled = createEvent();

export const fetchServicesFx = createEffect(systemLogsApi.services);
export const removeNodeFx = createEffect(systemLogsApi.removeNode);

/**
 * The services with their nodes. A service is listed only while one of its nodes is
 * ONLINE (spec 03); its stopped nodes stay listed with it, so an admin can remove them.
 * A failed fetch is silent (spec 03 §8): the list stays as it was.
 */
export const $services = createStore<Array<[string, ClusterNode[]]>>([]).on(
  fetchServicesFx.doneData,
  (_, map) =>
    Object.entries(map).filter(([, nodes]) => nodes.some((node) => node.status === 'ONLINE')),
);
export const $loaded = createStore(false).on(fetchServicesFx.finally, () => true);
export const $removing = createStore<ClusterNode | null>(null)
  .on(removeClicked, (_, node) => node)
  .on([removeCancelled, removeNodeFx.finally], () => null);

// When the page opens, or a node was removed, load the services.
sample({ clock: [pageMounted, removeNodeFx.done], target: fetchServicesFx });

// When the removal is confirmed, remove the node.
sample({
  clock: removeConfirmed,
  source: $removing,
  filter: (node): node is ClusterNode => node !== null,
  fn: (node) => ({ serviceId: node!.service_id, nodeId: node!.node_id }),
  target: removeNodeFx,
});

// When a removal ends, say how.
sample({
  clock: removeNodeFx.done,
  fn: ({ params }) => ({ kind: 'success' as const, text: L.removed(params.nodeId) }),
  target: notificationShown,
});
sample({
  clock: removeNodeFx.failData,
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, L.removeFailed) }),
  target: notificationShown,
});
