import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { StorageSummary } from '../../api/storageSummary';
import { $error, $summary, fetchSummaryFx, pageMounted, refreshClicked } from './model';
import { STORAGE_SUMMARY_LABELS } from './messages';

const summary = (artifactsSize: number): StorageSummary => ({
  binariesSummary: {
    binariesCount: 1,
    binariesSize: 10,
    artifactsCount: 2,
    artifactsSize,
    itemsCount: 2,
    optimization: 50,
  },
  fileStoreSummary: {
    storageType: 'filesystem',
    storageDirectory: 'data/filestore',
    totalSpace: 100,
    usedSpace: 40,
    freeSpace: 60,
  },
  repositoriesSummaryList: [],
});

describe('storage summary model', () => {
  it('fetches when the page opens and again on Refresh', async () => {
    const fetchSummary = vi
      .fn()
      .mockResolvedValueOnce(summary(20))
      .mockResolvedValueOnce(summary(30));
    const scope = fork({ handlers: [[fetchSummaryFx, fetchSummary]] });
    await allSettled(pageMounted, { scope });
    expect(scope.getState($summary)?.binariesSummary.artifactsSize).toBe(20);
    await allSettled(refreshClicked, { scope });
    expect(fetchSummary).toHaveBeenCalledTimes(2);
    expect(scope.getState($summary)?.binariesSummary.artifactsSize).toBe(30);
  });

  it('asks once while a fetch is under way', async () => {
    let release: (value: StorageSummary) => void = () => {};
    const fetchSummary = vi.fn(() => new Promise<StorageSummary>((resolve) => (release = resolve)));
    const scope = fork({ handlers: [[fetchSummaryFx, fetchSummary]] });
    // allSettled waits for every effect of the scope: both settle once the answer comes.
    const opened = allSettled(pageMounted, { scope });
    const refreshed = allSettled(refreshClicked, { scope });
    release(summary(20));
    await Promise.all([opened, refreshed]);
    expect(fetchSummary).toHaveBeenCalledTimes(1);
  });

  it("shows the server's reason, or the spec's words when it gives none, and clears it on success", async () => {
    const forbidden = new ApiError({
      message: 'status 403',
      status: 403,
      body: { errors: [{ status: 403, message: 'You are not authorized to perform this action' }] },
      method: 'GET',
      url: '/ui/api/v1/ui/storagesummary',
    });
    const fetchSummary = vi
      .fn()
      .mockRejectedValueOnce(forbidden)
      .mockRejectedValueOnce(new ApiError({ message: '', status: 502, method: 'GET', url: '/x' }))
      .mockResolvedValueOnce(summary(20));
    const scope = fork({ handlers: [[fetchSummaryFx, fetchSummary]] });
    await allSettled(pageMounted, { scope });
    expect(scope.getState($error)).toBe('You are not authorized to perform this action');
    await allSettled(refreshClicked, { scope });
    expect(scope.getState($error)).toBe(STORAGE_SUMMARY_LABELS.fetchFailed);
    await allSettled(refreshClicked, { scope });
    expect(scope.getState($error)).toBeNull();
  });
});
