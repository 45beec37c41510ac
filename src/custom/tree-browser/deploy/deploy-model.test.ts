import { allSettled, fork, type EventCallable } from 'effector';
import { describe, expect, it, vi } from 'vitest';
import { dismissLaterFx } from '../../../shell/notifications/model';
import { fetchChildrenFx, fetchRootsFx, saveSettingsFx } from '../model';
import {
  $confirmingCancelAll,
  $overallProgress,
  $panelVisible,
  $uploads,
  cancelAllClicked,
  cancelAllConfirmed,
  cancelAllDismissed,
  deployRequested,
  uploadCancelled,
  uploadFx,
  type Upload,
} from './deploy-model';

const request = (...names: string[]) => ({
  repoKey: 'docs',
  folder: 'in',
  files: names.map((name) => new File([name], name)),
  properties: {},
  explode: false,
});

/**
 * A scope whose uploads never end on their own: each waits until the test lets it go. Its
 * events are launched without awaiting `allSettled`, which would wait for the held uploads.
 */
function scopeWithHeldUploads() {
  const release = new Map<number, () => void>();
  const upload = vi.fn(
    (uid: number) => new Promise<number>((resolve) => release.set(uid, () => resolve(uid))),
  );
  const scope = fork({
    handlers: [
      [uploadFx, upload],
      [fetchRootsFx, async () => ({ data: [] })],
      [fetchChildrenFx, async () => ({ data: [] })],
      [dismissLaterFx, vi.fn(async () => -1)],
      [saveSettingsFx, vi.fn()],
    ],
  });
  const launch = <T>(unit: EventCallable<T>, ...params: T extends void ? [] : [T]) =>
    void allSettled(unit, { scope, params: params[0] as T });
  return { scope, upload, release, launch };
}

describe('multi-deploy (spec 02 §4)', () => {
  it('shows overall progress as the sum of the percentages over the count', () => {
    const uploads = (percentages: number[]): Upload[] =>
      percentages.map((percentage, i) => ({
        uid: i + 1,
        name: `f${i}`,
        target: `docs/f${i}`,
        percentage,
        status: percentage === 100 ? 'success' : 'uploading',
      }));
    const progress = (percentages: number[]) =>
      fork({ values: [[$uploads, uploads(percentages)]] }).getState($overallProgress);
    expect(progress([100, 50, 0])).toBe(50);
    expect(progress([100, 0, 0])).toBe(33);
    expect(progress([30, 61])).toBe(46);
    expect(progress([])).toBe(0);
  });

  it('uploads one file at a time, in order, and cancels one without touching the others', async () => {
    const { scope, upload, release, launch } = scopeWithHeldUploads();
    launch(deployRequested, request('one', 'two', 'three'));
    const names = () => scope.getState($uploads).map((u) => `${u.name}:${u.status}`);
    await vi.waitFor(() => expect(upload).toHaveBeenCalledTimes(1));
    expect(names()).toEqual(['one:queued', 'two:queued', 'three:queued']);
    const [first, second] = scope.getState($uploads);
    launch(uploadCancelled, second!.uid);
    await vi.waitFor(() => expect(names()).toEqual(['one:queued', 'three:queued']));
    release.get(first!.uid)!();
    await vi.waitFor(() => expect(upload).toHaveBeenCalledTimes(2));
    expect(upload.mock.calls.map(([uid]) => uid)).toEqual([first!.uid, first!.uid + 2]);
    expect(names()).toEqual(['one:success', 'three:queued']);
    expect(scope.getState($overallProgress)).toBe(50);
    expect(scope.getState($panelVisible)).toBe(true);
    release.get(first!.uid + 2)!();
    await vi.waitFor(() => expect(scope.getState($panelVisible)).toBe(false));
  });

  it('cancels all only after the confirmation, and the panel goes', async () => {
    const { scope, upload, launch } = scopeWithHeldUploads();
    launch(deployRequested, request('a', 'b'));
    await vi.waitFor(() => expect(upload).toHaveBeenCalledTimes(1));
    launch(cancelAllClicked);
    expect(scope.getState($confirmingCancelAll)).toBe(true);
    launch(cancelAllDismissed);
    expect(scope.getState($confirmingCancelAll)).toBe(false);
    expect(scope.getState($uploads)).toHaveLength(2);
    launch(cancelAllClicked);
    launch(cancelAllConfirmed);
    expect(scope.getState($uploads)).toEqual([]);
    expect(scope.getState($confirmingCancelAll)).toBe(false);
    expect(scope.getState($panelVisible)).toBe(false);
  });
});
