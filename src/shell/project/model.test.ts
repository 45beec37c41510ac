import { describe, expect, it } from 'vitest';
import { allSettled, fork } from 'effector';
import type { Project } from '../../api/projects';
import { $currentUser } from '../session/model';
import {
  $canAdministerProjects,
  $contextProjectKey,
  $projectSettingsMode,
  DEFAULT_PROJECT_KEY,
  fetchProjectsFx,
  projectSelected,
  projectsChanged,
} from './model';

const project = (key: string): Project => ({
  project_key: key,
  display_name: key.toUpperCase(),
  description: '',
  admin_privileges: { manage_members: true, manage_resources: true, index_resources: true },
  storage_quota_bytes: null,
});
const user = { name: 'pia', anonymous: false, admin: false };

describe('project context', () => {
  it('selects a project the user may administer, and falls back to All otherwise', async () => {
    const scope = fork({
      values: [[$currentUser, user]],
      handlers: [[fetchProjectsFx, async () => [project('alpha')]]],
    });
    await allSettled(projectsChanged, { scope });
    expect(scope.getState($canAdministerProjects)).toBe(true);
    expect(scope.getState($projectSettingsMode)).toBe(false);

    await allSettled(projectSelected, { scope, params: 'alpha' });
    expect(scope.getState($contextProjectKey)).toBe('alpha');
    expect(scope.getState($projectSettingsMode)).toBe(true);

    // A project this user does not administer is no context: calls go out without a key.
    await allSettled(projectSelected, { scope, params: 'beta' });
    expect(scope.getState($contextProjectKey)).toBeNull();
    expect(scope.getState($projectSettingsMode)).toBe(false);

    await allSettled(projectSelected, { scope, params: DEFAULT_PROJECT_KEY });
    expect(scope.getState($projectSettingsMode)).toBe(false);
  });

  it('offers no project administration to a user who administers none', async () => {
    const scope = fork({
      values: [[$currentUser, user]],
      handlers: [[fetchProjectsFx, async () => []]],
    });
    await allSettled(projectsChanged, { scope });
    expect(scope.getState($canAdministerProjects)).toBe(false);
  });

  it('lets an admin administer projects before any exists', async () => {
    const scope = fork({
      values: [[$currentUser, { ...user, admin: true }]],
      handlers: [[fetchProjectsFx, async () => []]],
    });
    await allSettled(projectsChanged, { scope });
    expect(scope.getState($canAdministerProjects)).toBe(true);
  });
});
