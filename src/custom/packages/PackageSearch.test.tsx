import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Provider } from 'effector-react';
import { fork } from 'effector';
import PackagesPage from './PackagesPage';
import { listFx } from './model';
import { PACKAGE_LABELS as L, PACKAGE_MESSAGES as M } from './messages';

afterEach(cleanup);

/** The package list at `entry`, its searches recorded instead of sent. */
function renderAt(entry: string) {
  const searches = vi.fn(async () => ({
    edges: [],
    pageInfo: { hasNextPage: false, endCursor: null },
  }));
  const scope = fork({ handlers: [[listFx, searches]] as never });
  const router = createMemoryRouter([{ path: '/packages', element: <PackagesPage /> }], {
    initialEntries: [entry],
  });
  render(
    <Provider value={scope}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { searches, router };
}

describe('the package search reads ?name= (the toolbar Packages scope)', () => {
  it('searches the term the address names, and shows it in the search box', async () => {
    const { searches } = renderAt('/packages?name=lodash');
    await waitFor(() => expect(searches).toHaveBeenCalledWith({ name: 'lodash' }));
    expect((screen.getByRole('searchbox', { name: L.search }) as HTMLInputElement).value).toBe(
      'lodash',
    );
  });

  it('follows a new term in the address while the page is open', async () => {
    const { searches, router } = renderAt('/packages?name=lodash');
    await waitFor(() => expect(searches).toHaveBeenCalledWith({ name: 'lodash' }));
    await router.navigate('/packages?name=react');
    await waitFor(() => expect(searches).toHaveBeenCalledWith({ name: 'react' }));
  });

  it('asks for 3 characters besides wildcards before it searches', async () => {
    const { searches } = renderAt('/packages?name=lo*');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', M.termTooShort);
    expect(searches).not.toHaveBeenCalled();
    const box = screen.getByRole('searchbox', { name: L.search });
    await userEvent.clear(box);
    await userEvent.type(box, 'lod*');
    await userEvent.click(screen.getByRole('button', { name: L.searchButton }));
    await waitFor(() =>
      expect(searches).toHaveBeenCalledWith(expect.objectContaining({ name: 'lod*' })),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
