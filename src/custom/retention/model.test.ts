import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import type { RestoreOutcome } from './api';
import { RETENTION_MESSAGES as M } from './messages';
import {
  $archived,
  $restoreFailures,
  archiveSearchRouted,
  fetchMonitoringFx,
  rangeChanged,
  restoreConfirmed,
  restoreFx,
  searchArchiveFx,
} from './model';

const item = { name: 'a.bin', repo: 'libs', path: 'old', created: '', archived: '', size: 1 };

function scopeWith(restore: () => Promise<RestoreOutcome>) {
  const fetch = vi.fn(async () => ({ summary: undefined as never, archive: [], restore: [] }));
  const search = vi.fn(async () => [item]);
  const scope = fork({
    handlers: [
      [fetchMonitoringFx, fetch],
      [searchArchiveFx, search],
      [restoreFx, restore],
      [dismissLaterFx, vi.fn(async () => -1)],
    ],
  });
  return { scope, fetch, search };
}

describe('the archive pages model', () => {
  it("says 'Some params are invalid' for a date that is not one, and sends nothing", async () => {
    const { scope, fetch } = scopeWith(vi.fn());
    await allSettled(rangeChanged, { scope, params: { from: '2026-03-20', to: '2026-03-01' } });
    expect(fetch).not.toHaveBeenCalled();
    expect(scope.getState($notifications).map((note) => note.text)).toEqual([M.invalidParams]);
    await allSettled(rangeChanged, { scope, params: { from: '2026-03-01', to: '2026-03-20' } });
    expect(fetch).toHaveBeenCalledWith({
      from: new Date('2026-03-01T00:00:00').getTime(),
      to: new Date('2026-03-20T23:59:59.999').getTime(),
    });
  });

  it('tells what a restore did, lists what it could not put back, and searches again', async () => {
    const restore = vi.fn(async () => ({
      info: '0 item(s) restored; 1 could not be (see the restore execution)',
      restored: 0,
      failures: [{ item: 'libs/old/a.bin', reason: "'libs/old/a.bin' exists already" }],
    }));
    const { scope, search } = scopeWith(restore);
    await allSettled(archiveSearchRouted, { scope, params: 'items.find({"repo":"libs"})' });
    expect(scope.getState($archived)).toEqual([item]);
    const request = { restoreToOriginal: true, itemsToRestore: [item] };
    await allSettled(restoreConfirmed, { scope, params: request });
    expect(restore).toHaveBeenCalledWith(request);
    expect(scope.getState($restoreFailures)).toEqual([
      "libs/old/a.bin: 'libs/old/a.bin' exists already",
    ]);
    expect(scope.getState($notifications).at(-1)).toMatchObject({
      kind: 'error',
      text: '0 item(s) restored; 1 could not be (see the restore execution)',
    });
    expect(search).toHaveBeenCalledTimes(2);
  });
});
