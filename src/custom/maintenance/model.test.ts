import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { MaintenanceView } from '../../api/maintenance';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import {
  $busyJobs,
  $canSave,
  $dirty,
  $fieldErrors,
  $form,
  $formBusy,
  checkCronsFx,
  fetchMaintenanceFx,
  fieldChanged,
  pageMounted,
  quotaToggled,
  refreshStatusFx,
  resetClicked,
  runClicked,
  runJobFx,
  saveClicked,
  saveMaintenanceFx,
} from './model';
import { MAINTENANCE_MESSAGES } from './messages';

const view = (): MaintenanceView => ({
  garbageCollectorCron: '0 0 2 * * ?',
  cleanUnusedCachedCron: '0 12 5 * * ?',
  cleanVirtualRepoCron: '0 12 0 * * ?',
  quotaControl: false,
  storageLimit: -1,
  storageWarning: -1,
  storageUsage: { usedPercent: 40, warning: false, limitReached: false },
  jobs: {} as MaintenanceView['jobs'],
});

/** A scope whose crontime calls say any cron with "bad" in it is invalid. */
function scopeWith(
  handlers: {
    fetch?: () => Promise<MaintenanceView>;
    save?: () => Promise<unknown>;
    run?: () => Promise<unknown>;
  } = {},
) {
  const cronTime = vi.fn(async (crons: string[]) =>
    crons.map((cron) => [
      cron,
      cron.includes('bad') ? { error: MAINTENANCE_MESSAGES.invalidCron } : { nextRun: 'soon' },
    ]),
  );
  return fork({
    handlers: [
      [fetchMaintenanceFx, handlers.fetch ?? vi.fn(async () => view())],
      [refreshStatusFx, vi.fn(async () => view())],
      [checkCronsFx, cronTime],
      [saveMaintenanceFx, handlers.save ?? vi.fn()],
      [runJobFx, handlers.run ?? vi.fn()],
      // Notifications stay on screen for the test to read (no dismissal timer).
      [dismissLaterFx, vi.fn(async () => -1)],
    ],
  });
}

describe('maintenance model', () => {
  it('loads the form and has every cron checked by the server', async () => {
    const scope = scopeWith();
    await allSettled(pageMounted, { scope });
    expect(scope.getState($form)?.garbageCollectorCron).toBe('0 0 2 * * ?');
    expect(scope.getState($dirty)).toBe(false);
    expect(scope.getState($canSave)).toBe(false);
  });

  it('shows the cron and required messages and will not save then', async () => {
    const save = vi.fn();
    const scope = scopeWith({ save });
    await allSettled(pageMounted, { scope });
    await allSettled(fieldChanged, { scope, params: { garbageCollectorCron: 'bad cron' } });
    expect(scope.getState($fieldErrors).garbageCollectorCron).toBe(
      MAINTENANCE_MESSAGES.invalidCron,
    );
    await allSettled(fieldChanged, { scope, params: { garbageCollectorCron: ' ' } });
    expect(scope.getState($fieldErrors).garbageCollectorCron).toBe(MAINTENANCE_MESSAGES.required);
    await allSettled(saveClicked, { scope });
    expect(save).not.toHaveBeenCalled();
  });

  it('starts an enabled quota from usable values and checks warning below limit', async () => {
    const scope = scopeWith();
    await allSettled(pageMounted, { scope });
    await allSettled(quotaToggled, { scope, params: true });
    expect(scope.getState($form)).toMatchObject({
      quotaControl: true,
      storageLimit: 95,
      storageWarning: 85,
    });
    await allSettled(fieldChanged, { scope, params: { storageWarning: 95 } });
    expect(scope.getState($fieldErrors).storageWarning).toBe(
      MAINTENANCE_MESSAGES.warningBelowLimit,
    );
    await allSettled(resetClicked, { scope });
    expect(scope.getState($form)?.quotaControl).toBe(false);
    expect(scope.getState($dirty)).toBe(false);
  });

  it('saves a valid change and shows the server’s info', async () => {
    const save = vi.fn(async () => ({
      ...view(),
      garbageCollectorCron: '0 0 3 * * ?',
      info: 'Successfully updated maintenance settings',
    }));
    const scope = scopeWith({ save });
    await allSettled(pageMounted, { scope });
    await allSettled(fieldChanged, { scope, params: { garbageCollectorCron: '0 0 3 * * ?' } });
    expect(scope.getState($canSave)).toBe(true);
    await allSettled(saveClicked, { scope });
    expect(save).toHaveBeenCalledWith(
      expect.objectContaining({ garbageCollectorCron: '0 0 3 * * ?' }),
    );
    expect(scope.getState($dirty)).toBe(false);
    expect(scope.getState($notifications).map((n) => n.text)).toContain(
      'Successfully updated maintenance settings',
    );
  });

  it('runs a job once at a time and shows what it did', async () => {
    let finish: (answer: { info: string }) => void = () => {};
    const run = vi.fn(() => new Promise<{ info: string }>((resolve) => (finish = resolve)));
    const scope = scopeWith({ run });
    await allSettled(pageMounted, { scope });
    const first = allSettled(runClicked, { scope, params: 'garbageCollection' });
    expect(scope.getState($busyJobs)).toEqual(['garbageCollection']);
    const second = allSettled(runClicked, { scope, params: 'garbageCollection' });
    finish({ info: 'Garbage collection freed 2 binaries (3 bytes)' });
    await Promise.all([first, second]);
    expect(run).toHaveBeenCalledTimes(1);
    expect(scope.getState($busyJobs)).toEqual([]);
    expect(scope.getState($notifications).map((n) => n.text)).toContain(
      'Garbage collection freed 2 binaries (3 bytes)',
    );
  });

  it('tells why a run failed', async () => {
    const conflict = new ApiError({
      message: 'Conflict',
      status: 409,
      body: { errors: [{ status: 409, message: 'Garbage Collection is already running' }] },
      method: 'POST',
      url: '/ui/api/v1/ui/maintenance/garbageCollection',
    });
    const scope = scopeWith({ run: vi.fn(async () => Promise.reject(conflict)) });
    await allSettled(runClicked, { scope, params: 'garbageCollection' });
    expect(scope.getState($notifications)).toEqual([
      expect.objectContaining({ kind: 'error', text: 'Garbage Collection is already running' }),
    ]);
  });

  it('stays busy while the page opened again reads the settings, so no edit is replaced', async () => {
    const fetch = vi.fn(async () => view());
    const scope = scopeWith({ fetch });
    await allSettled(pageMounted, { scope });
    expect(scope.getState($formBusy)).toBe(false);
    // The second visit shows the form of the first at once, and reads the settings again.
    let answerRead: (answer: MaintenanceView) => void = () => {};
    fetch.mockImplementationOnce(() => new Promise((resolve) => (answerRead = resolve)));
    const opened = allSettled(pageMounted, { scope });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(scope.getState($form)?.garbageCollectorCron).toBe('0 0 2 * * ?');
    expect(scope.getState($formBusy)).toBe(true);
    expect(scope.getState($canSave)).toBe(false);
    answerRead({ ...view(), garbageCollectorCron: '0 0 3 * * ?' });
    await opened;
    expect(scope.getState($formBusy)).toBe(false);
    expect(scope.getState($form)?.garbageCollectorCron).toBe('0 0 3 * * ?');
    expect(scope.getState($dirty)).toBe(false);
  });
});
