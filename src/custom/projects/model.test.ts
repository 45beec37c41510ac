import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import type { Project } from '../../api/projects';
import { dismissLaterFx } from '../../shell/notifications/model';
import { $projects, $selectedProjectKey, projectSelected } from '../../shell/project/model';
import {
  $overviewBusy,
  $project,
  fetchMembersFx,
  fetchProjectFx,
  fetchRolesFx,
  fetchStorageFx,
  overviewSaved,
  settingsClosed,
  settingsOpened,
  updateFx,
} from './model';

const ALPHA: Project = {
  project_key: 'alpha',
  display_name: 'Team Alpha',
  description: '',
  admin_privileges: { manage_members: true, manage_resources: true, index_resources: true },
  storage_quota_bytes: null,
};

/** A promise and the function that settles it, for a call that answers when the test says. */
function late<T>() {
  let answer: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => (answer = resolve));
  return { promise, answer: (value: T) => answer(value) };
}

function scopeWith(fetchProject: () => Promise<Project>, update: () => Promise<Project>) {
  return fork({
    values: [
      [$projects, [ALPHA]],
      [$selectedProjectKey, 'alpha'],
    ],
    handlers: [
      [fetchProjectFx, fetchProject],
      [fetchMembersFx, vi.fn(async () => ({ users: [], groups: [] }))],
      [fetchRolesFx, vi.fn(async () => [])],
      [fetchStorageFx, vi.fn(async () => null)],
      [updateFx, update],
      [dismissLaterFx, vi.fn(async () => -1)],
    ],
  });
}

describe('project overview model', () => {
  it('stays busy while the project is read again or saved, so no edit typed meanwhile is replaced', async () => {
    const fetchProject = vi.fn(async () => ALPHA);
    const update = vi.fn(async () => ALPHA);
    const scope = scopeWith(fetchProject, update);
    await allSettled(settingsOpened, { scope });
    expect(scope.getState($project)).toEqual(ALPHA);
    expect(scope.getState($overviewBusy)).toBe(false);

    // Opened again: the project shown is read again, and its answer becomes the form.
    const reread = late<Project>();
    fetchProject.mockImplementationOnce(() => reread.promise);
    const opened = allSettled(settingsOpened, { scope });
    await vi.waitFor(() => expect(fetchProject).toHaveBeenCalledTimes(2));
    expect(scope.getState($overviewBusy)).toBe(true);
    reread.answer({ ...ALPHA, description: 'read again' });
    await opened;
    expect(scope.getState($overviewBusy)).toBe(false);
    expect(scope.getState($project)?.description).toBe('read again');

    // Saved: the stored project becomes the form once the save answers.
    const saving = late<Project>();
    update.mockImplementationOnce(() => saving.promise);
    const saved = allSettled(overviewSaved, { scope, params: { display_name: 'Alpha Team' } });
    await vi.waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(scope.getState($overviewBusy)).toBe(true);
    saving.answer({ ...ALPHA, display_name: 'Alpha Team' });
    await saved;
    expect(scope.getState($overviewBusy)).toBe(false);
    expect(scope.getState($project)?.display_name).toBe('Alpha Team');
  });

  it('reads a newly chosen project only while one of its settings pages shows', async () => {
    const fetchProject = vi.fn(async () => ALPHA);
    const scope = scopeWith(
      fetchProject,
      vi.fn(async () => ALPHA),
    );
    // Another page (packages, say) switches the project: nothing of the settings is read.
    await allSettled(projectSelected, { scope, params: 'alpha' });
    expect(fetchProject).not.toHaveBeenCalled();
    await allSettled(settingsOpened, { scope });
    expect(fetchProject).toHaveBeenCalledTimes(1);
    await allSettled(projectSelected, { scope, params: 'alpha' });
    expect(fetchProject).toHaveBeenCalledTimes(2);
    await allSettled(settingsClosed, { scope });
    await allSettled(projectSelected, { scope, params: 'alpha' });
    expect(fetchProject).toHaveBeenCalledTimes(2);
  });
});
