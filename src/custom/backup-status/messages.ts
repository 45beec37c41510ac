import type { BackupProgress, BackupRun, BackupStatus } from './api';
import { formatSize } from '../storage-summary/format';

/** The backup status panel's words (the spec names the Run Now action only: docs/backup.md). */
export const BACKUP_STATUS_LABELS = {
  title: 'Backup Runs',
  loading: 'Loading…',
  runNow: 'Run Now',
  restore: 'Restore',
  running: 'Running',
  progress: 'Progress',
  lastRun: 'Last Run',
  nextRun: 'Next Run',
  newest: 'Newest Backup',
  never: 'This backup has not run yet.',
  neverRun: 'Not run yet',
  noBackup: 'None yet',
  notScheduled: 'Not scheduled',
  restoreTitle: 'Restore Backup',
  restoreText: (name: string) =>
    `Restore '${name}' into this Depot? A backup restores into an empty Depot only (no ` +
    'repositories); its users, settings and documents replace this Depot’s, and everyone signs in again with the restored accounts.',
  restoreConfirm: 'Restore',
  cancel: 'Cancel',
};

const PHASES: Record<BackupProgress['phase'], string> = {
  metadata: 'Reading the metadata',
  space: 'Checking the free space',
  binaries: 'Copying the binaries',
  finishing: 'Finishing',
};

const OUTCOMES: Record<BackupRun['outcome'], string> = {
  running: 'Running',
  success: 'Succeeded',
  failure: 'Failed',
};

/** A running backup's progress in words: the phase, then binaries and bytes done of all. */
export function progressText(progress: BackupProgress): string {
  const phase = PHASES[progress.phase];
  if (progress.phase === 'metadata' || progress.blobsTotal === 0) return phase;
  return (
    `${phase}: ${progress.blobsDone} of ${progress.blobsTotal} binaries, ` +
    `${formatSize(progress.bytesDone)} of ${formatSize(progress.bytesTotal)}`
  );
}

/** A run's outcome and when, e.g. "Succeeded at 11/26/2026, 10:00:00 PM (run now)". */
export function runText(run: BackupRun, at: (iso: string) => string): string {
  const when = at(run.finishedAt ?? run.startedAt);
  const trigger = run.trigger === 'manual' ? ' (run now)' : '';
  return `${OUTCOMES[run.outcome]} at ${when}${trigger}`;
}

/** How far a running backup is, in % of its bytes (of its binaries when they weigh nothing). */
export function progressPercent(progress: BackupProgress): number {
  if (progress.bytesTotal > 0) return Math.floor((100 * progress.bytesDone) / progress.bytesTotal);
  if (progress.blobsTotal > 0) return Math.floor((100 * progress.blobsDone) / progress.blobsTotal);
  return 0;
}

/** The Backups list's state: running, or the last run's outcome and when, or never run. */
export function runStateText(status: BackupStatus): string {
  if (status.running) return OUTCOMES.running;
  if (!status.lastRun) return BACKUP_STATUS_LABELS.neverRun;
  return runText(status.lastRun, (iso) => new Date(iso).toLocaleString());
}
