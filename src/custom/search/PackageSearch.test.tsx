import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Provider } from 'effector-react';
import { fork } from 'effector';
import { PACKAGE_SEARCH_FIELDS } from '../../../server/modules/search/package-fields.ts';
import SearchResultsPage from './SearchResultsPage';
import { packageQuery } from './api';
import { searchFx } from './model';
import { packageTypesFx } from './packageTypesModel';
import { SEARCH_LABELS as L } from './messages';
import { chooseOption, optionNames, selectTrigger } from '../../design/components/testing';

afterEach(cleanup);

/** What the server lists (its own fields), for npm, PyPI and Maven. */
const TYPES = ['npm', 'pypi', 'maven'].map((id) => ({ id, fields: PACKAGE_SEARCH_FIELDS[id]! }));

function renderPackageSearch() {
  const searches = vi.fn(async () => ({ results: [], hasMore: false }));
  const scope = fork({
    handlers: [
      [packageTypesFx, async () => TYPES],
      [searchFx, searches],
    ] as never,
  });
  const router = createMemoryRouter(
    [{ path: '/artifactSearchResults', element: <SearchResultsPage /> }],
    { initialEntries: ['/artifactSearchResults?searchType=pkg'] },
  );
  render(
    <Provider value={scope}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router };
}

describe('the Artifact Search page’s Package search (spec 02 §3)', () => {
  it('offers every package type the server indexes, each with its own fields', async () => {
    const { router } = renderPackageSearch();
    // npm's own fields appear once the server's types are in
    await screen.findByRole('textbox', { name: 'Scope' });
    expect(selectTrigger(L.packageType).textContent).toContain('npm');
    expect(await optionNames(L.packageType)).toEqual(['npm', 'PyPI', 'Maven']);
    await chooseOption(L.packageType, 'Maven');
    for (const label of ['Group ID', 'Artifact ID', 'Version', 'Classifier'])
      expect(screen.getByRole('textbox', { name: label })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Scope' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Group ID' }), 'org.acme');
    await userEvent.type(screen.getByRole('textbox', { name: 'Artifact ID' }), 'lib');
    await userEvent.click(screen.getByRole('button', { name: L.search }));
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        searchType: 'pkg',
        pkg: 'maven',
        name: 'org.acme',
        artifact: 'lib',
      }),
    );
    // a person's clicks and typing through a popover take seconds on a loaded machine
  }, 30000);

  it('sends each field under the id the server reads for that type', () => {
    const params = {
      searchType: 'pkg' as const,
      pkg: 'maven',
      name: 'org.acme',
      artifact: 'lib',
      repo: ['libs'],
    };
    expect(packageQuery(params, PACKAGE_SEARCH_FIELDS.maven!)).toEqual([
      { id: 'pkgType', values: ['maven'] },
      { id: 'groupID', values: ['org.acme'] },
      { id: 'artifactID', values: ['lib'] },
      { id: 'version', values: [] },
      { id: 'classifier', values: [] },
      { id: 'repo', values: ['libs'] },
    ]);
    expect(
      packageQuery({ searchType: 'pkg', name: 'left', scope: 'acme' }, PACKAGE_SEARCH_FIELDS.npm!),
    ).toEqual([
      { id: 'pkgType', values: ['npm'] },
      { id: 'npmName', values: ['left'] },
      { id: 'npmVersion', values: [] },
      { id: 'npmScope', values: ['acme'] },
      { id: 'repo', values: [] },
    ]);
  });
});
