import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'effector-react';
import { fork } from 'effector';
import type { BackupStatus } from './api';
import { BACKUP_STATUS_LABELS as L, progressText } from './messages';
import { BackupProgressCell, BackupStateCell, loadRunStatusFx } from './runCells';

afterEach(cleanup);

const progress = {
  phase: 'binaries' as const,
  blobsDone: 3,
  blobsTotal: 8,
  bytesDone: 3072,
  bytesTotal: 8192,
};
const running: BackupStatus = {
  running: true,
  progress,
  nextRun: null,
  lastRun: null,
  newestBackup: null,
};
const failed: BackupStatus = {
  running: false,
  progress: null,
  nextRun: null,
  lastRun: {
    trigger: 'manual',
    startedAt: '2026-11-26T22:00:00.000Z',
    finishedAt: '2026-11-26T22:00:05.000Z',
    outcome: 'failure',
    info: 'Failed: Not enough free space for the backup',
  },
  newestBackup: null,
};

/** The list's two run columns of one row, the status calls answered by `answers` in turn. */
function renderRow(answers: BackupStatus[]) {
  const statuses = vi.fn(
    async () => answers[Math.min(statuses.mock.calls.length - 1, answers.length - 1)],
  );
  const scope = fork({ handlers: [[loadRunStatusFx, statuses]] as never });
  const row = { key: 'nightly' };
  render(
    <Provider value={scope}>
      <table>
        <tbody>
          <tr>
            <td data-testid="state">
              <BackupStateCell row={row} />
            </td>
            <td data-testid="progress">
              <BackupProgressCell row={row} />
            </td>
          </tr>
        </tbody>
      </table>
    </Provider>,
  );
  return statuses;
}

describe('the Backups list run columns', () => {
  it('show a run in progress, then follow it live to its end', async () => {
    const statuses = renderRow([running, running, failed]);
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('Running'));
    expect(statuses).toHaveBeenCalledWith('nightly');
    expect(screen.getByTestId('progress').textContent).toContain(progressText(progress));
    expect(screen.getByRole('progressbar', { name: L.progress })).toHaveProperty('value', 37);
    // asked again every second while it runs, until the server says it ended
    await waitFor(() => expect(screen.getByTestId('state').textContent).toMatch(/^Failed at /), {
      timeout: 5000,
    });
    expect(statuses.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(screen.getByTestId('state').firstElementChild?.getAttribute('title')).toBe(
      failed.lastRun!.info,
    );
    expect(screen.getByTestId('progress').textContent).toBe('');
  });

  it('say so when a backup has not run yet', async () => {
    renderRow([{ ...failed, lastRun: null }]);
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe(L.neverRun));
  });
});
