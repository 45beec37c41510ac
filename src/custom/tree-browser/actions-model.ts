import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import {
  artifactActionsApi,
  artifactHref,
  folderDownloadHref,
  treeBrowserApi,
  treeTabsApi,
  type FolderDownloadInfo,
  type FolderDownloadOptions,
  type TransferRequest,
  type TreeNode,
  type VersionEntry,
} from '../../api/treeBrowser';
import { notificationShown } from '../../shell/notifications/model';
import { fetchNodeInfoFx } from './details-model';
import { ACTION_LABELS as A } from './messages';
import { treeReloaded } from './model';
import { nodeId } from './rows';
import { compatibleTargets, parentPathOf, transferDestination } from './targets';

/**
 * The node actions (spec 02 §4 Node actions): each opens its dialog, runs its call, says
 * what happened and moves the tree to where the result is.
 */
export type TransferAction = 'copy' | 'move' | 'restore';
export type ActionDialog =
  | { kind: 'delete'; node: TreeNode; permanent: boolean }
  | { kind: 'transfer'; action: TransferAction; node: TreeNode }
  | { kind: 'emptytrash' }
  | { kind: 'downloadfolder'; node: TreeNode; info: FolderDownloadInfo }
  | { kind: 'deleteversions'; node: TreeNode; versions: VersionEntry[] }
  | { kind: 'view'; node: TreeNode; text: string };

/** An action of the server's offer clicked; `permanent` is the server's word on a delete. */
export const actionClicked = createEvent<{ name: string; node: TreeNode; permanent?: boolean }>();
export const dialogClosed = createEvent();
export const deleteConfirmed = createEvent();
export const emptyTrashConfirmed = createEvent();
/** The Download Folder dialog's Download, with the archive format and checksum option chosen. */
export const downloadFolderConfirmed = createEvent<FolderDownloadOptions>();
export const transferSubmitted = createEvent<Omit<TransferRequest, 'repoKey' | 'path'>>();
/** The versions ticked in the Delete Versions dialog, to delete. */
export const versionsDeleteConfirmed = createEvent<VersionEntry[]>();

/** HEAD first (spec 02 §4 Downloads): 401 stops silently, 403 and 404 say so. */
export const downloadFileFx = createEffect(async (node: TreeNode) => {
  const href = artifactHref(node.repoKey, node.path);
  const response = await fetch(href, { method: 'HEAD', credentials: 'same-origin' });
  if (response.status === 401) return;
  if (!response.ok) throw new Error(A.downloadFailed(node.text, response.status));
  startDownload(href);
});
/** Spec 02 §4 Downloads: how long a folder download may take to answer. */
export const FOLDER_DOWNLOAD_TIMEOUT_MS = 600000;

/**
 * A folder is asked about with a HEAD first, as a file is: the browser saves the archive
 * straight to disk and would show nothing of a refusal (too many downloads running, the
 * folder past the limits). 401 stops silently, as for a file.
 */
export const downloadFolderFx = createEffect(
  async ({ node, options }: { node: TreeNode; options: FolderDownloadOptions }) => {
    const href = folderDownloadHref(node, options);
    const response = await fetch(href, {
      method: 'HEAD',
      credentials: 'same-origin',
      signal: AbortSignal.timeout(FOLDER_DOWNLOAD_TIMEOUT_MS),
    });
    if (response.status === 401) return;
    if (!response.ok) throw new Error(A.downloadFailed(node.text, response.status));
    startDownload(href);
  },
);
/** The View action: the file's text from the server, shown in the code view dialog. */
export const viewFx = createEffect(async (node: TreeNode) => ({
  node,
  text: (await artifactActionsApi.view(node)).fileContent,
}));
export const folderInfoFx = createEffect(async (node: TreeNode) => ({
  node,
  info: await artifactActionsApi.downloadFolderInfo(node),
}));
export const deleteFx = createEffect(
  async ({ node, permanent }: { node: TreeNode; permanent: boolean }) =>
    artifactActionsApi.delete({ repoKey: node.repoKey, path: node.path, permDelete: permanent }),
);
export const emptyTrashFx = createEffect(() => artifactActionsApi.emptyTrash());
export const transferFx = createEffect(
  ({ action, request }: { action: TransferAction; request: TransferRequest }) =>
    artifactActionsApi.transfer(action, request),
);
/** Watch and unwatch act at once: no dialog (spec 02 §4). */
export const watchFx = createEffect(({ name, node }: { name: string; node: TreeNode }) =>
  name === 'watch' ? treeTabsApi.watch(node) : treeTabsApi.unwatch(node),
);
/** Zapping acts at once too: it only makes metadata be checked upstream sooner. */
export const zapFx = createEffect(({ name, node }: { name: string; node: TreeNode }) =>
  artifactActionsApi.zap(name === 'zapVirtual' ? 'zapVirtual' : 'zap', node),
);

export const versionsFx = createEffect(async (node: TreeNode) => ({
  node,
  versions: (await artifactActionsApi.versions(node)).versions,
}));
export const deleteVersionsFx = createEffect(
  ({ node, versions }: { node: TreeNode; versions: VersionEntry[] }) =>
    artifactActionsApi.deleteVersions(
      node,
      versions.map(({ groupId, version }) => ({ groupId, version })),
    ),
);
/** Calculating an index reads every file of the repository: it runs while a note says so. */
export const calculateIndexFx = createEffect((node: TreeNode) =>
  artifactActionsApi.calculateIndex(node),
);

/** Bumped after a watch changes, so that the Watch tab reads its list again. */
export const $watchesVersion = createStore(0).on(watchFx.done, (n) => n + 1);

/** Local repositories, the only kind a node can be copied, moved or restored into. */
export const fetchTargetsFx = createEffect(() => treeBrowserApi.localRepositories());

/** Lets the browser download a URL as a file, without leaving the page. */
export function startDownload(href: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

export const $dialog = createStore<ActionDialog | null>(null).reset(dialogClosed);
/** The dry run's answer, shown in the dialog until the form changes or it closes. */
export const $dryRunResult = createStore<string | null>(null)
  .reset(dialogClosed, actionClicked)
  .on(transferFx.done, (_, { params, result }) => (params.request.dryRun ? result.info : null))
  .on(transferFx.failData, (_, error) => errorMessage(error));
export const $targets = createStore<TreeNode[]>([]).on(fetchTargetsFx.doneData, (_, t) => t);
export const $transferTargets = sample({
  source: { dialog: $dialog, targets: $targets },
  fn: ({ dialog, targets }) =>
    dialog?.kind === 'transfer' ? compatibleTargets(dialog.action, dialog.node, targets) : [],
});
export const $actionRunning = createStore(false)
  .on(
    [
      deleteFx,
      emptyTrashFx,
      transferFx,
      folderInfoFx,
      viewFx,
      downloadFolderFx,
      versionsFx,
      deleteVersionsFx,
    ],
    () => true,
  )
  .on(
    [
      deleteFx.finally,
      emptyTrashFx.finally,
      transferFx.finally,
      folderInfoFx.finally,
      viewFx.finally,
      downloadFolderFx.finally,
      versionsFx.finally,
      deleteVersionsFx.finally,
    ],
    () => false,
  );

const succeeded = (info: string) => ({ kind: 'success' as const, text: info });
const failed = (error: Error) => ({ kind: 'error' as const, text: errorMessage(error) });

// ---- opening the dialogs ----------------------------------------------------------------

const clicked = (name: string) => (click: { name: string }) => click.name === name;
sample({
  clock: actionClicked,
  filter: clicked('download'),
  fn: ({ node }) => node,
  target: downloadFileFx,
});
sample({
  clock: actionClicked,
  filter: ({ name }) => name === 'watch' || name === 'unwatch',
  target: watchFx,
});
sample({
  clock: actionClicked,
  filter: ({ name }) => name === 'zap' || name === 'zapVirtual',
  target: zapFx,
});
sample({ clock: zapFx.doneData, fn: ({ info }) => succeeded(info), target: notificationShown });
sample({
  clock: actionClicked,
  filter: clicked('calculateIndex'),
  fn: ({ node }) => node,
  target: calculateIndexFx,
});
sample({
  clock: calculateIndexFx,
  fn: (node) => ({ kind: 'info' as const, text: A.calculatingIndex(node.repoKey) }),
  target: notificationShown,
});
sample({
  clock: calculateIndexFx.doneData,
  fn: ({ info }) => succeeded(info),
  target: notificationShown,
});
// The offer changes (watch becomes unwatch): read the node's tabs and actions again.
sample({ clock: watchFx.done, fn: ({ params }) => params.node, target: fetchNodeInfoFx });
sample({ clock: watchFx.doneData, fn: ({ info }) => succeeded(info), target: notificationShown });
sample({
  clock: actionClicked,
  filter: clicked('downloadfolder'),
  fn: ({ node }) => node,
  target: folderInfoFx,
});
sample({ clock: actionClicked, filter: clicked('view'), fn: ({ node }) => node, target: viewFx });
$dialog.on(viewFx.doneData, (_, { node, text }) => ({ kind: 'view', node, text }));
$dialog.on(folderInfoFx.doneData, (_, { node, info }) => ({ kind: 'downloadfolder', node, info }));
// Whether a delete is permanent (the trash can is off, or the node is in it) is the server's
// word, sent with the action: the tree cannot tell, since it may not show the trash can.
// The dialog says which, and the confirmed delete asks for exactly that.
sample({
  clock: actionClicked,
  filter: clicked('delete'),
  fn: ({ node, permanent }): ActionDialog => ({
    kind: 'delete',
    node,
    permanent: permanent === true || node.trash === true,
  }),
  target: $dialog,
});
sample({
  clock: actionClicked,
  filter: clicked('emptytrash'),
  fn: (): ActionDialog => ({ kind: 'emptytrash' }),
  target: $dialog,
});
sample({
  clock: actionClicked,
  filter: ({ name }) => name === 'copy' || name === 'move' || name === 'restore',
  fn: ({ name, node }): ActionDialog => ({
    kind: 'transfer',
    action: name as TransferAction,
    node,
  }),
  target: $dialog,
});
sample({
  clock: actionClicked,
  filter: ({ name }) => name === 'copy' || name === 'move' || name === 'restore',
  target: fetchTargetsFx,
});

// Delete Versions lists what is below the folder first (spec 02 §2 modal: versions, node).
sample({
  clock: actionClicked,
  filter: clicked('deleteversions'),
  fn: ({ node }) => node,
  target: versionsFx,
});
$dialog.on(versionsFx.doneData, (_, { node, versions }) => ({
  kind: 'deleteversions',
  node,
  versions,
}));

// ---- running them -----------------------------------------------------------------------

sample({
  clock: versionsDeleteConfirmed,
  source: $dialog,
  filter: (dialog, versions) => dialog?.kind === 'deleteversions' && versions.length > 0,
  fn: (dialog, versions) => ({
    node: (dialog as Extract<ActionDialog, { kind: 'deleteversions' }>).node,
    versions,
  }),
  target: deleteVersionsFx,
});
$dialog.reset(deleteVersionsFx.done);
sample({
  clock: deleteVersionsFx.doneData,
  fn: ({ info }) => succeeded(info),
  target: notificationShown,
});
// The folder stays (other versions may remain): the tree is read again where it was.
sample({
  clock: deleteVersionsFx.done,
  fn: ({ params }) => nodeId(params.node),
  target: treeReloaded,
});

sample({
  clock: deleteConfirmed,
  source: $dialog,
  filter: (dialog) => dialog?.kind === 'delete',
  fn: (dialog) => dialog as Extract<ActionDialog, { kind: 'delete' }>,
  target: deleteFx,
});
// The dialog closes at once; the check and the download's start go on behind it.
sample({
  clock: downloadFolderConfirmed,
  source: $dialog,
  filter: (dialog) => dialog?.kind === 'downloadfolder',
  fn: (dialog, options) => ({
    node: (dialog as Extract<ActionDialog, { kind: 'downloadfolder' }>).node,
    options,
  }),
  target: downloadFolderFx,
});
$dialog.reset(downloadFolderFx);
sample({
  clock: emptyTrashConfirmed,
  source: $dialog,
  filter: (dialog) => dialog?.kind === 'emptytrash',
  target: emptyTrashFx,
});
sample({
  clock: transferSubmitted,
  source: $dialog,
  filter: (dialog) => dialog?.kind === 'transfer',
  fn: (dialog, target) => {
    const { action, node } = dialog as Extract<ActionDialog, { kind: 'transfer' }>;
    return { action, request: { repoKey: node.repoKey, path: node.path, ...target } };
  },
  target: transferFx,
});

// Delete, then the parent (spec 02 §4).
$dialog.reset(deleteFx.done, emptyTrashFx.done);
sample({
  clock: [deleteFx.doneData, emptyTrashFx.doneData],
  fn: ({ info }) => succeeded(info),
  target: notificationShown,
});
sample({
  clock: deleteFx.done,
  fn: ({ params }) => parentPathOf(nodeId(params.node)),
  target: treeReloaded,
});
sample({ clock: emptyTrashFx.done, fn: () => '', target: treeReloaded });

// A real run hides the dialog, says so and goes to the target; a dry run only answers.
const transferred = sample({
  clock: transferFx.done,
  filter: ({ params }) => !params.request.dryRun,
});
$dialog.reset(transferred);
sample({
  clock: transferred,
  fn: ({ result }) => succeeded(result.info),
  target: notificationShown,
});
sample({
  clock: transferred,
  fn: ({ params }) => transferDestination(params.request),
  target: treeReloaded,
});

sample({
  clock: [
    deleteFx.failData,
    emptyTrashFx.failData,
    folderInfoFx.failData,
    viewFx.failData,
    downloadFileFx.failData,
    downloadFolderFx.failData,
    watchFx.failData,
    zapFx.failData,
    calculateIndexFx.failData,
    versionsFx.failData,
    deleteVersionsFx.failData,
  ],
  fn: failed,
  target: notificationShown,
});
