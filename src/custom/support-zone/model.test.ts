import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import type { SupportBundle } from '../../api/supportBundles';
import {
  $bundles,
  $createError,
  $createOpen,
  createOpened,
  createSubmitted,
  fetchBundlesFx,
  generateBundleFx,
  pageMounted,
  pageUnmounted,
  refreshDelayFx,
} from './model';
import { dismissLaterFx } from '../../shell/notifications/model';
import { defaultRange } from './messages';

const bundle = (id: string, statusClass: SupportBundle['statusClass']) =>
  ({ id, name: `bundle ${id}`, statusClass, status: statusClass, progress: 0 }) as SupportBundle;
const request = { name: 'b', description: '', startDate: '2026-01-01', endDate: '2026-01-02' };

describe('support zone model', () => {
  it('asks for the list again while a bundle is made, and stops when it is ready', async () => {
    const answers = [
      [bundle('1', 'in-progress')],
      [bundle('1', 'in-progress')],
      [bundle('1', 'success')],
    ];
    const fetch = vi.fn(async () => answers.shift() ?? []);
    const scope = fork({
      handlers: [
        [fetchBundlesFx, fetch],
        [refreshDelayFx, async () => undefined],
      ],
    });
    await allSettled(pageMounted, { scope });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(scope.getState($bundles)).toEqual([bundle('1', 'success')]);
  });

  it('stops asking once the page is closed', async () => {
    const fetch = vi.fn(async () => [bundle('1', 'in-progress')]);
    let leave: () => void = () => undefined;
    const scope = fork({
      handlers: [
        [fetchBundlesFx, fetch],
        [refreshDelayFx, () => new Promise<void>((resolve) => (leave = resolve))],
      ],
    });
    const mounted = allSettled(pageMounted, { scope });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // Closing waits for the pending pause too: the page closes, then the pause ends.
    const closing = allSettled(pageUnmounted, { scope });
    leave();
    await Promise.all([closing, mounted]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shows a started bundle at once and closes the form; a refusal stays in the form', async () => {
    const started = bundle('2', 'success');
    const scope = fork({
      values: [[$bundles, [bundle('1', 'success')]]],
      handlers: [
        [generateBundleFx, async () => started],
        [dismissLaterFx, async () => undefined],
      ],
    });
    await allSettled(createOpened, { scope });
    await allSettled(createSubmitted, { scope, params: request });
    expect(scope.getState($bundles).map((b) => b.id)).toEqual(['2', '1']);
    expect(scope.getState($createOpen)).toBe(false);

    const refusing = fork({
      handlers: [
        [
          generateBundleFx,
          async () => {
            throw { errors: [{ message: 'The start date is after the end date' }] };
          },
        ],
      ],
    });
    await allSettled(createOpened, { scope: refusing });
    await allSettled(createSubmitted, { scope: refusing, params: request });
    expect(refusing.getState($createOpen)).toBe(true);
    expect(refusing.getState($createError)).toBe('The start date is after the end date');
  });

  it('offers the last seven days of logs', () => {
    expect(defaultRange(new Date(2026, 0, 5))).toEqual({
      startDate: '2025-12-29',
      endDate: '2026-01-05',
    });
  });
});
