import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Provider } from 'effector-react';
import { fork } from 'effector';
import { $currentUser } from '../session/model';
import { LABELS, LOGOUT_PATH } from '../messages';
import { UserMenu } from './UserMenu';

afterEach(cleanup);

function renderMenu() {
  const scope = fork({
    values: [[$currentUser, { name: 'admin', email: 'admin@example.test', admin: true }]],
  });
  const router = createMemoryRouter(
    [
      { path: '/', element: <UserMenu /> },
      { path: LOGOUT_PATH, element: <p>signed out</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <Provider value={scope}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router };
}

describe('the toolbar’s user menu (React Aria DialogTrigger and Popover)', () => {
  it('opens a named panel from its button, closes on Escape and returns the focus', async () => {
    renderMenu();
    const button = screen.getByRole('button', {
      name: new RegExp(`^${LABELS.userMenu}:\\s*admin$`),
    });
    await userEvent.click(button);
    const panel = screen.getByRole('dialog', { name: LABELS.userMenu });
    expect(panel.textContent).toContain('admin@example.test');
    expect(screen.getByRole('switch', { name: LABELS.darkTheme })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // React Aria gives the focus back on the next animation frame, after the panel unmounts.
    await waitFor(() => expect(document.activeElement).toBe(button));
  }, 30000);

  it('reaches Logout with the keyboard alone', async () => {
    const { router } = renderMenu();
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: LABELS.userMenu });
    const logout = screen.getByRole('button', { name: LABELS.logout });
    for (let step = 0; step < 5 && document.activeElement !== logout; step += 1)
      await userEvent.tab();
    expect(document.activeElement).toBe(logout);
    await userEvent.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe(LOGOUT_PATH);
  }, 30000);
});
