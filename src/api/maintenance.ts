import { call } from './client';

/** The Maintenance form (spec 03 §3): Quartz crons, and the storage quota in percent. */
export interface MaintenanceForm {
  garbageCollectorCron: string;
  cleanUnusedCachedCron: string;
  cleanVirtualRepoCron: string;
  quotaControl: boolean;
  storageLimit: number;
  storageWarning: number;
}

export type MaintenanceJobName =
  'garbageCollection' | 'cleanUnusedCache' | 'cleanVirtualRepo' | 'compress' | 'prune';

export interface JobRun {
  job: string;
  trigger: 'cron' | 'manual';
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'success' | 'failure';
  info: string;
}

export interface MaintenanceJobView {
  title: string;
  running: boolean;
  nextRun: string | null;
  lastRun: JobRun | null;
}

/** `GET /ui/maintenance`: the form, the disk's usage and each job's schedule and last run. */
export interface MaintenanceView extends MaintenanceForm {
  storageUsage: { usedPercent: number; warning: boolean; limitReached: boolean };
  jobs: Record<MaintenanceJobName, MaintenanceJobView>;
}

export const maintenanceApi = {
  get: () => call<MaintenanceView>('GET', '/ui/maintenance'),
  save: (form: MaintenanceForm) =>
    call<MaintenanceView & { info: string }>('PUT', '/ui/maintenance', { json: form }),
  /** The next run of a cron; 400 "The cron expression is invalid" when it has none. */
  cronTime: (cron: string) =>
    call<{ nextRun: string }>('GET', '/ui/crontime', { searchParams: { cron } }),
  /** Run Now: the answer's `info` says what the job did. */
  run: (job: MaintenanceJobName) => call<{ info: string }>('POST', `/ui/maintenance/${job}`),
};
