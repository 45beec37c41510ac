import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import type { BackupStatus } from './api';
import { progressText, runText } from './messages';
import {
  $restoreAsked,
  $restoreError,
  $status,
  loadStatusFx,
  restoreClicked,
  restoreConfirmed,
  restoreFx,
  runNowClicked,
  runNowFx,
  statusRequested,
} from './model';

const NOT_EMPTY =
  'This Depot has repositories already: a backup restores into an empty Depot only (no repositories)';

const running = (): BackupStatus => ({
  running: true,
  progress: { phase: 'binaries', blobsDone: 3, blobsTotal: 8, bytesDone: 3072, bytesTotal: 8192 },
  nextRun: null,
  lastRun: null,
  newestBackup: null,
});

const done = (): BackupStatus => ({
  running: false,
  progress: null,
  nextRun: '2026-11-27T02:00:00.000Z',
  lastRun: {
    trigger: 'manual',
    startedAt: '2026-11-26T22:00:00.000Z',
    finishedAt: '2026-11-26T22:00:05.000Z',
    outcome: 'success',
    info: "Backup 'nightly' wrote 8 binaries (8 copied, 8.0 KB) and removed 0 expired backups",
  },
  newestBackup: 'backup-20261126.220000',
});

function scopeWith(handlers: {
  status: () => Promise<BackupStatus>;
  restore?: () => Promise<unknown>;
}) {
  return fork({
    handlers: [
      [loadStatusFx, vi.fn(handlers.status)],
      [runNowFx, vi.fn(async () => ({ info: "Backup 'nightly' started" }))],
      [restoreFx, vi.fn(handlers.restore ?? (async () => ({ info: 'Restored', warnings: [] })))],
      [dismissLaterFx, vi.fn()],
    ],
  });
}

describe('the backup status panel', () => {
  it('shows a run in progress, then its result once the server says it ended', async () => {
    const answers = [running(), done()];
    const scope = scopeWith({ status: async () => answers.shift()! });
    await allSettled(statusRequested, { scope, params: 'nightly' });
    expect(progressText(scope.getState($status)!.progress!)).toBe(
      'Copying the binaries: 3 of 8 binaries, 3 KB of 8 KB',
    );
    await allSettled(statusRequested, { scope, params: 'nightly' });
    const status = scope.getState($status)!;
    expect(status.running).toBe(false);
    expect(runText(status.lastRun!, () => 'then')).toBe('Succeeded at then (run now)');
  });

  it('says why a run failed, in the server’s words', () => {
    const failed = {
      ...done().lastRun!,
      outcome: 'failure' as const,
      trigger: 'cron' as const,
      info: 'Failed: Not enough free space for the backup: it needs 1.0 MB, the target has 0 B free',
    };
    expect(runText(failed, () => 'then')).toBe('Failed at then');
    expect(progressText({ ...running().progress!, phase: 'metadata' })).toBe(
      'Reading the metadata',
    );
  });

  it('starts a run and loads the status again', async () => {
    const status = vi.fn(async () => running());
    const scope = scopeWith({ status });
    await allSettled(statusRequested, { scope, params: 'nightly' });
    await allSettled(runNowClicked, { scope, params: 'nightly' });
    expect(status).toHaveBeenCalledTimes(2);
    expect(scope.getState($notifications).map((n) => n.text)).toContain("Backup 'nightly' started");
  });

  it('restores only once confirmed, and shows the server’s refusal', async () => {
    const restore = vi.fn(async () => {
      throw new ApiError({
        message: 'Conflict',
        status: 409,
        body: { errors: [{ status: 409, message: NOT_EMPTY }] },
        method: 'POST',
        url: '/ui/api/v1/ui/backup/nightly/restore',
      });
    });
    const scope = scopeWith({ status: async () => done(), restore });
    await allSettled(statusRequested, { scope, params: 'nightly' });
    await allSettled(restoreClicked, { scope });
    expect(scope.getState($restoreAsked)).toBe(true);
    expect(restore).not.toHaveBeenCalled();
    await allSettled(restoreConfirmed, { scope, params: 'nightly' });
    expect(restore).toHaveBeenCalledWith('nightly');
    expect(scope.getState($restoreAsked)).toBe(false);
    expect(scope.getState($restoreError)).toBe(NOT_EMPTY);
  });
});
