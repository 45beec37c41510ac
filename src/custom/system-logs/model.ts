import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { systemLogsApi, type ClusterNode, type LogData } from '../../api/systemLogs';
import {
  DEFAULT_REFRESH_MILLIS,
  LOG_SERVICES,
  MAX_KEPT_CHARS,
  SYSTEM_LOGS_LABELS as L,
} from './messages';

export const pageMounted = createEvent();
export const serviceSelected = createEvent<string>();
export const nodeSelected = createEvent<string>();
export const logSelected = createEvent<string>();
export const pauseClicked = createEvent();
export const resumeClicked = createEvent();
export const refreshNowClicked = createEvent();
/** A second passed (the page's timer). */
export const secondTicked = createEvent();

export const fetchNodesFx = createEffect(systemLogsApi.nodes);
export const fetchConfigFx = createEffect(systemLogsApi.config);
/** A full read replaces the text; an incremental one appends what was written since. */
export const fetchDataFx = createEffect(
  async (request: { service: string; nodeId: string; id: string; offset: number }) => ({
    offset: request.offset,
    data: await systemLogsApi.data(request),
  }),
);

export const $service = createStore(LOG_SERVICES[0].value).on(serviceSelected, (_, id) => id);
export const $nodes = createStore<ClusterNode[]>([]).on(fetchNodesFx.doneData, (_, n) => n);
export const $nodeId = createStore('').on(nodeSelected, (_, id) => id);
export const $logs = createStore<string[]>([]).on(fetchConfigFx.doneData, (_, c) => c.logs);
export const $logId = createStore('').on(logSelected, (_, id) => id);
export const $refreshSeconds = createStore(DEFAULT_REFRESH_MILLIS / 1000).on(
  fetchConfigFx.doneData,
  (_, config) =>
    Math.max(1, Math.round((config.refresh_rate_millis ?? DEFAULT_REFRESH_MILLIS) / 1000)),
);

/** Keeps the newest MAX_KEPT_CHARS of the text, from a line's start. */
function keepTail(text: string): string {
  if (text.length <= MAX_KEPT_CHARS) return text;
  const cut = text.length - MAX_KEPT_CHARS;
  const nextLine = text.indexOf('\n', cut);
  return nextLine === -1 ? text.slice(cut) : text.slice(nextLine + 1);
}

/** A smaller size than the offset sent means the log was rotated: its text starts afresh. */
const startsAfresh = ({ offset, data }: { offset: number; data: LogData }) =>
  offset === 0 || data.file_size < offset;

export const $text = createStore('')
  .on([logSelected, nodeSelected, serviceSelected], () => '')
  .on(fetchDataFx.doneData, (text, result) =>
    keepTail(startsAfresh(result) ? result.data.log_content : text + result.data.log_content),
  );
export const $fileSize = createStore(0)
  .on([logSelected, nodeSelected, serviceSelected], () => 0)
  .on(fetchDataFx.doneData, (_, { data }) => data.file_size);
export const $lastModified = createStore<number | null>(null).on(
  fetchDataFx.doneData,
  (_, { data }) => data.last_update_modified || null,
);
export const $lastUpdated = createStore<string | null>(null).on(
  fetchDataFx.doneData,
  (_, { data }) => data.last_update_label,
);

/** Why nothing can be shown: the log configuration (or the node list) failed. */
export const $failure = createStore<string | null>(null)
  .on([fetchNodesFx, fetchConfigFx], () => null)
  .on(fetchNodesFx.failData, (_, error) => errorMessage(error, L.nodesFailed))
  .on(fetchConfigFx.failData, (_, error) => errorMessage(error, L.configFailed));
export const $dataError = createStore<string | null>(null)
  .on(fetchDataFx, () => null)
  .on(fetchDataFx.failData, (_, error) => errorMessage(error, L.dataFailed));

export const $paused = createStore(false)
  .on(pauseClicked, () => true)
  .on(resumeClicked, () => false)
  // A failed configuration pauses auto-refresh (spec 03 §4, "Live logs").
  .on([fetchConfigFx.fail, fetchNodesFx.fail], () => true)
  .on(fetchConfigFx.done, () => false);
export const $countdown = createStore(DEFAULT_REFRESH_MILLIS / 1000);
export const $loadingMore = fetchDataFx.pending;

const $target = combine({ service: $service, nodeId: $nodeId, id: $logId, offset: $fileSize });

// When the page opens, load the nodes.
sample({ clock: pageMounted, target: fetchNodesFx });

// When the nodes arrive, pick the node that answered, unless one still listed is picked.
sample({
  clock: fetchNodesFx.doneData,
  source: $nodeId,
  filter: (current, nodes) => !nodes.some((node) => node.node_id === current),
  fn: (_, nodes) => (nodes.find((node) => node.local) ?? nodes[0])?.node_id ?? '',
  target: nodeSelected,
});

// When the service changes, the node list reloads.
sample({ clock: serviceSelected, target: fetchNodesFx });

// When a node is picked, its log configuration reloads.
sample({
  clock: nodeSelected,
  source: $service,
  filter: (_, nodeId) => nodeId !== '',
  fn: (service, nodeId) => ({ service, nodeId }),
  target: fetchConfigFx,
});

// When the configuration arrives, keep the log picked if the node has it, else its first.
sample({
  clock: fetchConfigFx.doneData,
  source: $logId,
  fn: (current, config) => (config.logs.includes(current) ? current : config.logs[0]),
  target: logSelected,
});

// When a log is picked: a full read.
sample({
  clock: logSelected,
  source: { service: $service, nodeId: $nodeId },
  filter: (_, id) => Boolean(id),
  fn: ({ service, nodeId }, id) => ({ service, nodeId, id, offset: 0 }),
  target: fetchDataFx,
});

// Each read, the countdown starts again.
sample({
  clock: [fetchDataFx.finally, resumeClicked],
  source: $refreshSeconds,
  target: $countdown,
});

// Each second while not paused and not reading, the countdown goes down.
sample({
  clock: secondTicked,
  source: { countdown: $countdown, paused: $paused, loading: $loadingMore },
  filter: ({ paused, loading, countdown }) => !paused && !loading && countdown > 0,
  fn: ({ countdown }) => countdown - 1,
  target: $countdown,
});

const countdownEnded = sample({
  clock: $countdown.updates,
  source: $paused,
  filter: (paused, countdown) => !paused && countdown === 0,
});

// When the countdown reaches zero, or Refresh now is clicked: read on from the last size.
sample({
  clock: [countdownEnded, refreshNowClicked],
  source: { target: $target, loading: $loadingMore, failure: $failure },
  filter: ({ target, loading, failure }) => Boolean(target.id) && !loading && !failure,
  fn: ({ target }) => target,
  target: fetchDataFx,
});

// Refresh now after a failure tries again from where it failed.
sample({
  clock: refreshNowClicked,
  source: { failure: $failure, service: $service, nodeId: $nodeId },
  filter: ({ failure, nodeId }) => failure !== null && nodeId !== '',
  fn: ({ service, nodeId }) => ({ service, nodeId }),
  target: fetchConfigFx,
});
sample({
  clock: refreshNowClicked,
  source: { failure: $failure, nodeId: $nodeId },
  filter: ({ failure, nodeId }) => failure !== null && nodeId === '',
  target: fetchNodesFx,
});
