import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Provider } from 'effector-react';
import { fork } from 'effector';
import { $projects, $selectedProjectKey } from '../../shell/project/model';
import { $currentUser } from '../../shell/session/model';
import type { CurrentUser } from '../../api/auth';
import type { Project } from '../../api/projects';
import SearchResultsPage from './SearchResultsPage';
import { SEARCH_TYPES } from './messages';

afterEach(cleanup);

function renderPage(selectedProject: string, admin = true) {
  const scope = fork({
    values: [
      [$projects, [{ project_key: 'web', display_name: 'Web' } as Project]],
      [$selectedProjectKey, selectedProject],
      [$currentUser, { name: 'ann', admin } as CurrentUser],
    ],
  });
  const router = createMemoryRouter(
    [{ path: '/artifactSearchResults', element: <SearchResultsPage /> }],
    {
      initialEntries: ['/artifactSearchResults'],
    },
  );
  render(
    <Provider value={scope}>
      <RouterProvider router={router} />
    </Provider>,
  );
}

describe('search types in a project context (spec 02 §4)', () => {
  it('disables the Remote (Upstreams) and Trash searches while a project is selected, and only them', () => {
    renderPage('web');
    const disabled = SEARCH_TYPES.filter(
      (type) =>
        screen.getByRole('tab', { name: type.label }).getAttribute('aria-disabled') === 'true',
    );
    expect(disabled.map((type) => type.id).sort()).toEqual(['remote', 'trash']);
  });

  it('offers the Archive search to those whose archive is indexed (administrators) only', () => {
    renderPage('default', false);
    expect(screen.getByRole('tab', { name: 'Quick' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Archive' })).toBeNull();
  });

  it('offers every type in the default context', () => {
    renderPage('default');
    for (const type of SEARCH_TYPES)
      expect(
        screen.getByRole('tab', { name: type.label }).getAttribute('aria-disabled'),
      ).toBeNull();
  });
});
