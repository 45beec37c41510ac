import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { notificationShown } from '../../../shell/notifications/model';
import { treeReloaded } from '../model';
import { DEPLOY_LABELS as D } from './messages';
import { checksumsOf, deployUrl, putFile, UploadCancelled } from './uploader';

/**
 * Multi-deploy (spec 02 §3 Multi-deploy file, §4 Multi-deploy): files are added to a list and
 * uploaded one after another; each has a percentage and a status; one can be cancelled, or
 * all after a confirmation; the panel goes when all succeeded or the list is empty. Overall
 * progress is the sum of the percentages over the count.
 */
export type UploadStatus = 'queued' | 'hashing' | 'uploading' | 'success' | 'fail';
export interface Upload {
  uid: number;
  name: string;
  /** Where it goes: `repoKey/path/name`. */
  target: string;
  percentage: number;
  status: UploadStatus;
  error?: string;
}
export interface DeployRequest {
  repoKey: string;
  /** The folder to deploy into ('' for the repository's root). */
  folder: string;
  files: File[];
  properties: Record<string, string[]>;
  /** Deploy a zip as a bundle: its entries are extracted into the folder. */
  explode: boolean;
}

/** The cancel token sources, by uid: not state anyone renders, so kept beside the stores. */
const cancellers = new Map<number, AbortController>();
/** The File objects, by uid, until their upload ends. */
const pending = new Map<
  number,
  { file: File; repoKey: string; path: string; request: DeployRequest }
>();
let lastUid = 0;

export const deployRequested = createEvent<DeployRequest>();
export const uploadCancelled = createEvent<number>();
export const cancelAllClicked = createEvent();
export const cancelAllConfirmed = createEvent();
export const cancelAllDismissed = createEvent();
const progressed = createEvent<{ uid: number; status: UploadStatus; percentage: number }>();

const joinPath = (...parts: string[]) => parts.filter(Boolean).join('/');

export const uploadFx = createEffect(async (uid: number) => {
  const job = pending.get(uid)!;
  const signal = cancellers.get(uid)!.signal;
  progressed({ uid, status: 'hashing', percentage: 0 });
  const checksums = await checksumsOf(job.file, () => undefined, signal);
  progressed({ uid, status: 'uploading', percentage: 0 });
  const headers: Record<string, string> = {
    'X-Checksum-Sha1': checksums.sha1,
    'X-Checksum-Sha256': checksums.sha256,
  };
  if (job.request.explode) headers['X-Explode-Archive'] = 'true';
  await putFile(
    deployUrl(job.repoKey, job.path, job.request.properties),
    job.file,
    headers,
    (fraction) => progressed({ uid, status: 'uploading', percentage: Math.round(fraction * 100) }),
    signal,
  );
  return uid;
});

export const $uploads = createStore<Upload[]>([])
  .on(deployRequested, (list, request) => [
    ...list.filter((upload) => upload.status !== 'success'),
    ...request.files.map((file) => queue(file, request)),
  ])
  .on(progressed, (list, { uid, status, percentage }) =>
    list.map((u) => (u.uid === uid && u.status !== 'fail' ? { ...u, status, percentage } : u)),
  )
  .on(uploadFx.doneData, (list, uid) =>
    list.map((u) => (u.uid === uid ? { ...u, status: 'success', percentage: 100 } : u)),
  )
  .on(uploadFx.fail, (list, { params, error }) =>
    error instanceof UploadCancelled
      ? list.filter((u) => u.uid !== params)
      : list.map((u) => (u.uid === params ? { ...u, status: 'fail', error: error.message } : u)),
  )
  .on(uploadCancelled, (list, uid) => list.filter((u) => u.uid !== uid))
  .on(cancelAllConfirmed, () => []);

function queue(file: File, request: DeployRequest): Upload {
  const uid = ++lastUid;
  const path = joinPath(request.folder, file.name);
  pending.set(uid, { file, repoKey: request.repoKey, path, request });
  cancellers.set(uid, new AbortController());
  return {
    uid,
    name: file.name,
    target: joinPath(request.repoKey, path),
    percentage: 0,
    status: 'queued',
  };
}

export const $overallProgress = $uploads.map((list) =>
  list.length === 0 ? 0 : Math.round(list.reduce((sum, u) => sum + u.percentage, 0) / list.length),
);
export const $confirmingCancelAll = createStore(false)
  .on(cancelAllClicked, () => true)
  .reset(cancelAllConfirmed, cancelAllDismissed);
/** The panel shows while the list has files, and goes when every one succeeded. */
export const $panelVisible = $uploads.map(
  (list) => list.length > 0 && !list.every((u) => u.status === 'success'),
);

// One upload at a time, in the order added: the next starts when the last one ends.
const $running = createStore<number | null>(null)
  .on(uploadFx, (_, uid) => uid)
  .on(uploadFx.finally, () => null);
const nextQueued = combine($uploads, $running, (list, running) =>
  running === null ? (list.find((u) => u.status === 'queued')?.uid ?? null) : null,
);
sample({ clock: nextQueued, filter: (uid): uid is number => uid !== null, target: uploadFx });

// Cancelling aborts the request; the list forgets the file.
const abort = (uid: number) => {
  cancellers.get(uid)?.abort();
  cancellers.delete(uid);
  pending.delete(uid);
};
uploadCancelled.watch(abort);
cancelAllConfirmed.watch(() => [...cancellers.keys()].forEach(abort));
uploadFx.finally.watch(({ params }) => {
  cancellers.delete(params);
  pending.delete(params);
});

// When the last upload of a batch ends well, the tree shows where the files went.
const $lastTarget = createStore('').on(deployRequested, (_, request) =>
  request.files.length === 1 && !request.explode
    ? joinPath(request.repoKey, request.folder, request.files[0].name)
    : joinPath(request.repoKey, request.folder),
);
// The panel going away with files in the list means the batch all succeeded.
const batchDeployed = sample({
  clock: $panelVisible.updates,
  source: $uploads,
  filter: (uploads, visible) => !visible && uploads.length > 0,
});
sample({ clock: batchDeployed, source: $lastTarget, target: treeReloaded });
sample({
  clock: batchDeployed,
  fn: (uploads) => ({ kind: 'success' as const, text: D.deployed(uploads.length) }),
  target: notificationShown,
});
