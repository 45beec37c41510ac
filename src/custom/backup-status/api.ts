import { call } from '../../api/client';

/** What a running backup has done so far (docs/backup.md, "Runs"). */
export interface BackupProgress {
  phase: 'metadata' | 'space' | 'binaries' | 'finishing';
  blobsDone: number;
  blobsTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface BackupRun {
  trigger: 'cron' | 'manual';
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'success' | 'failure';
  /** The run's sentence, or `Failed: <why>`. */
  info: string;
}

/** `GET ui/backup/{key}/status`. */
export interface BackupStatus {
  running: boolean;
  progress: BackupProgress | null;
  nextRun: string | null;
  lastRun: BackupRun | null;
  /** The backup a Restore would take: the newest this backup wrote. */
  newestBackup: string | null;
}

const base = (key: string) => `/ui/backup/${encodeURIComponent(key)}`;

/** The backup status panel's calls. */
export const backupStatusApi = {
  status: (key: string) => call<BackupStatus>('GET', `${base(key)}/status`),
  runNow: (key: string) => call<{ info: string }>('POST', `${base(key)}/runnow`),
  restore: (key: string) =>
    call<{ info: string; warnings: string[] }>('POST', `${base(key)}/restore`),
};
