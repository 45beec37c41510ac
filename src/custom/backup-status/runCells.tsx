import { useEffect } from 'react';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { useStoreMap, useUnit } from 'effector-react';
import type { ListCellProps } from '../../engine/list/listCells';
import { backupStatusApi, type BackupStatus } from './api';
import { BACKUP_STATUS_LABELS as L, progressPercent, progressText, runStateText } from './messages';
import './backup-status.css';

/** How often a row asks again: often while its backup runs, seldom otherwise (as the panel). */
const RUNNING_REFRESH_MS = 1000;
const IDLE_REFRESH_MS = 10000;

/** A row of the Backups list wants its backup's run status (now, or again). */
export const runStatusWanted = createEvent<string>();
export const loadRunStatusFx = createEffect(backupStatusApi.status);

/**
 * The run status of each backup the list shows, by key. A failed call leaves the last known
 * status: the list is no place to repeat an error every ten seconds, and the backup's own
 * page says why.
 */
export const $runStatuses = createStore<Record<string, BackupStatus>>({}).on(
  loadRunStatusFx.done,
  (statuses, { params, result }) => ({ ...statuses, [params]: result }),
);

sample({ clock: runStatusWanted, target: loadRunStatusFx });

const keyOf = (row: ListCellProps['row']) => String(row.key);

function useRunStatus(key: string) {
  return useStoreMap({
    store: $runStatuses,
    keys: [key],
    fn: (statuses, [wanted]) => statuses[wanted] ?? null,
  });
}

/**
 * The Backups list's state column: running, or how the last run ended and when. This cell
 * asks the server for the row's status, every second while the backup runs; the progress
 * column shows the same answer.
 */
export function BackupStateCell({ row }: ListCellProps) {
  const key = keyOf(row);
  const status = useRunStatus(key);
  const wanted = useUnit(runStatusWanted);
  const running = Boolean(status?.running);
  useEffect(() => {
    wanted(key);
    const timer = setInterval(() => wanted(key), running ? RUNNING_REFRESH_MS : IDLE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [key, running, wanted]);
  if (!status) return null;
  const failed = !status.running && status.lastRun?.outcome === 'failure';
  return (
    <span
      className={failed ? 'backup-run-failed' : undefined}
      title={status.running ? undefined : status.lastRun?.info}
    >
      {runStateText(status)}
    </span>
  );
}

/** The Backups list's progress column: the running backup's phase, binaries and bytes. */
export function BackupProgressCell({ row }: ListCellProps) {
  const status = useRunStatus(keyOf(row));
  if (!status?.running || !status.progress) return null;
  const text = progressText(status.progress);
  return (
    <span className="backup-run-progress" title={text}>
      <progress max={100} value={progressPercent(status.progress)} aria-label={L.progress} /> {text}
    </span>
  );
}
