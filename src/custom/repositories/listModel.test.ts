import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { RepositoryListItem } from '../../api/repositories';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import { $rows, deleteConfirmed, deleteRepositoryFx, fetchListFx, listOpened } from './listModel';

const item = (repoKey: string, repoType: 'local' | 'remote' = 'local'): RepositoryListItem => ({
  repoKey,
  repoType,
  packageType: 'generic',
  packageTypeText: 'Generic',
  local: repoType === 'local',
  remote: repoType === 'remote',
  virtual: false,
  defaultDeploymentConfigured: false,
  description: '',
  layout: 'simple-default',
  environments: ['DEV'],
});

describe('repositories list model', () => {
  it('shows the rows of the tab still open, not a late answer for another', async () => {
    let release: (rows: RepositoryListItem[]) => void = () => {};
    const fetchList = vi.fn((kind: string) =>
      kind === 'local'
        ? new Promise<RepositoryListItem[]>((resolve) => (release = resolve))
        : Promise.resolve([item('cache-remote', 'remote')]),
    );
    const scope = fork({ handlers: [[fetchListFx, fetchList]] });
    // allSettled waits for every effect of the scope, so both run before either settles.
    const local = allSettled(listOpened, { scope, params: 'local' });
    const remote = allSettled(listOpened, { scope, params: 'remote' });
    await vi.waitFor(() => expect(fetchList).toHaveBeenCalledTimes(2));
    release([item('libs-local')]);
    await Promise.all([local, remote]);
    expect(scope.getState($rows).map((r) => r.repoKey)).toEqual(['cache-remote']);
  });

  it('removes a deleted repository from the list and says what the server said', async () => {
    const scope = fork({
      handlers: [
        [fetchListFx, async () => [item('a-local'), item('b-local')]],
        [deleteRepositoryFx, async () => ({ info: "Repository 'a-local' ... removed" })],
        [dismissLaterFx, async () => -1],
      ],
    });
    await allSettled(listOpened, { scope, params: 'local' });
    await allSettled(deleteConfirmed, { scope, params: item('a-local') });
    expect(scope.getState($rows).map((r) => r.repoKey)).toEqual(['b-local']);
    expect(scope.getState($notifications).map((n) => n.text)).toEqual([
      "Repository 'a-local' ... removed",
    ]);
  });

  it('keeps the row and shows the message when the delete is refused', async () => {
    const refused = new ApiError({
      message: '404',
      status: 404,
      method: 'DELETE',
      url: '/x',
      body: { errors: [{ status: 404, message: "Repository 'a-local' could not be found." }] },
    });
    const scope = fork({
      handlers: [
        [fetchListFx, async () => [item('a-local')]],
        [deleteRepositoryFx, async () => Promise.reject(refused)],
        [dismissLaterFx, async () => -1],
      ],
    });
    await allSettled(listOpened, { scope, params: 'local' });
    await allSettled(deleteConfirmed, { scope, params: item('a-local') });
    expect(scope.getState($rows)).toHaveLength(1);
    expect(scope.getState($notifications)[0]).toMatchObject({
      kind: 'error',
      text: "Repository 'a-local' could not be found.",
    });
  });
});
