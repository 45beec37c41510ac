import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import {
  treeBrowserApi,
  type ArtifactGeneral,
  type ArtifactsCount,
  type TabsAndActions,
  type TreeNode,
} from '../../api/treeBrowser';
import { notificationShown } from '../../shell/notifications/model';
import { TREE_MESSAGES as M } from './messages';
import { $activeRow, refreshClicked } from './model';
import { nodeId } from './rows';

/**
 * The active node's details: its tabs and actions, and the General tab's information.
 * Fetched again only when the active path changes or on refresh (spec 02 §4).
 */
export const countRequested = createEvent();
export const fixChecksumsClicked = createEvent();

export const fetchNodeInfoFx = createEffect(async (node: TreeNode) => {
  const [offer, general] = await Promise.all([
    treeBrowserApi.tabsAndActions(node),
    treeBrowserApi.general(node),
  ]);
  return { id: nodeId(node), offer, general };
});
export const fetchCountFx = createEffect((node: TreeNode) => treeBrowserApi.artifactsCount(node));
export const fixChecksumsFx = createEffect((node: TreeNode) => treeBrowserApi.fixChecksums(node));
export const $fixingChecksums = fixChecksumsFx.pending;

export interface NodeInfo {
  id: string;
  offer: TabsAndActions;
  general: ArtifactGeneral;
}
export const $nodeInfo = createStore<NodeInfo | null>(null);
export const $nodeInfoError = createStore<string | null>(null)
  .on(fetchNodeInfoFx, () => null)
  .on(fetchNodeInfoFx.failData, (_, error) => errorMessage(error, M.generalFailed));
export const $nodeInfoLoading = fetchNodeInfoFx.pending;
export const $count = createStore<ArtifactsCount | null>(null)
  .on(fetchCountFx.doneData, (_, count) => count)
  .on(fetchNodeInfoFx, () => null);

const $infoFor = createStore<string | null>(null).on(fetchNodeInfoFx, (_, node) => nodeId(node));
// Arrow keys move faster than answers come: only the answer for the node now active counts.
sample({
  clock: fetchNodeInfoFx.doneData,
  source: $infoFor,
  filter: (infoFor, info) => info.id === infoFor,
  fn: (_, info) => info,
  target: $nodeInfo,
});

sample({
  clock: $activeRow,
  source: $infoFor,
  filter: (infoFor, row) => row !== null && row.id !== infoFor,
  fn: (_, row) => row!.node,
  target: fetchNodeInfoFx,
});
sample({
  clock: refreshClicked,
  source: $activeRow,
  filter: (row) => row !== null,
  fn: (row) => row!.node,
  target: fetchNodeInfoFx,
});
sample({
  clock: countRequested,
  source: $activeRow,
  filter: (row) => row !== null && row.node.type !== 'file',
  fn: (row) => row!.node,
  target: fetchCountFx,
});

// The checksum fix says what it found, then the General tab is read again (the MD5 is known).
sample({
  clock: fixChecksumsClicked,
  source: $activeRow,
  filter: (row) => row !== null && row.node.type === 'file',
  fn: (row) => row!.node,
  target: fixChecksumsFx,
});
sample({
  clock: fixChecksumsFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
sample({
  clock: fixChecksumsFx.failData,
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
sample({ clock: fixChecksumsFx.done, fn: ({ params }) => params, target: fetchNodeInfoFx });
