import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, Link, useParams } from 'react-router-dom';
import { Provider } from 'effector-react';
import { allSettled, fork } from 'effector';
import { ApiError } from '../api/ApiError';
import type { CurrentUser } from '../api/auth';
import { adminUser, anonymousUser, plainUser } from './session/testUsers';
import { fetchDescriptorFx, fetchScreensFx } from '../engine/descriptors/model';
import { fetchRowsFx } from '../engine/list/model';
import { routes } from './routes';
import { attachRouter } from './navigation/model';
import { dismissLaterFx } from './notifications/model';
import { UnsavedChangesGuard } from './guards/UnsavedChangesGuard';
import {
  appStarted,
  fetchCurrentUserFx,
  fetchFooterFx,
  fetchLoginDataFx,
  loginFx,
  logoutFx,
} from './session/model';
import { DISCARD_DIALOG, LABELS, NOT_AUTHORIZED_MESSAGE, USER_HOME_PATH } from './messages';
import './model';
import { fetchOnboardingFx, landAdminFx } from './onboarding/model';
import { shippedScreens, shippedScreensFor } from '../screens/testing';
import generalConfigScreen from '../../schemas/screens/general-config.screen.json';
import generalSettingsSchema from '../../schemas/entities/general-settings.schema.json';
import type { SettingsDescriptor } from '../api/descriptor';
import { settingsModelOf } from '../engine/settings/model';
import { createScreenRegistry, type ScreenComponentProps } from '../engine/registry';
import { ScreenRegistryProvider } from '../engine/screenRegistryContext';

const admin = adminUser;
const jo = plainUser;
const anonymous = anonymousUser;

/**
 * Stands in for every bespoke screen the shipped descriptors name: says which screen, page
 * and route parameters it was given, so a test sees where a path went.
 */
function StubScreen({ screen, view }: ScreenComponentProps) {
  const { '*': rest, ...named } = useParams();
  return (
    <p data-testid="bespoke" data-rest={rest}>{`${screen.id} ${view} ${JSON.stringify(named)}`}</p>
  );
}
const stubRegistry = createScreenRegistry(
  Object.fromEntries(
    shippedScreens.flatMap((s) => (s.component ? [[s.component, StubScreen]] : [])),
  ),
);

/** The real route table in memory, on a scope whose server calls are stubs. */
async function start(path: string, user: CurrentUser, extra: Array<[unknown, unknown]> = []) {
  let current = user;
  const handlers = new Map<unknown, unknown>([
    [fetchCurrentUserFx, async () => current],
    [
      fetchFooterFx,
      async () => ({
        serverName: 'depot-1',
        versionID: '1',
        isAol: false,
        anonAccessEnabled: false,
      }),
    ],
    [
      fetchLoginDataFx,
      async () => ({ forgotPassword: false, rememberMeEnabled: false, oauthProviders: [] }),
    ],
    [
      fetchScreensFx,
      // As the server answers: a visitor only where anonymous access is on.
      async () =>
        current.anonymous && !current.anonAccessEnabled
          ? Promise.reject(new Error('401'))
          : shippedScreensFor(current),
    ],
    [fetchDescriptorFx, () => new Promise(() => {})],
    [fetchRowsFx, async () => []],
    [logoutFx, async () => void (current = anonymous)],
    [fetchOnboardingFx, async () => ({ quickSetup: 'done', offerQuickSetup: false })],
    [landAdminFx, async () => ({ quickSetup: 'done', offerQuickSetup: false })],
    [dismissLaterFx, async () => -1],
    ...extra,
  ]);
  const scope = fork({ handlers: handlers as never });
  await allSettled(appStarted, { scope });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  attachRouter(router);
  render(
    <Provider value={scope}>
      <ScreenRegistryProvider value={stubRegistry}>
        <RouterProvider router={router} />
      </ScreenRegistryProvider>
    </Provider>,
  );
  return { router, scope, signIn: (u: CurrentUser) => (current = u) };
}

const pathOf = (router: ReturnType<typeof createMemoryRouter>) => router.state.location.pathname;

describe('routes and guards', () => {
  it('sends a visitor to login and, after login, back to the page asked for', async () => {
    const { router, signIn } = await start('/admin/management/users', anonymous, [
      [loginFx, async () => signIn(admin)],
    ]);
    await screen.findByLabelText(/Username/);
    expect(pathOf(router)).toBe('/login');
    await userEvent.type(screen.getByLabelText(/Username/), 'admin');
    await userEvent.type(screen.getByLabelText(/Password/), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(pathOf(router)).toBe('/admin/management/users'));
    await waitFor(() => expect(document.title).toBe('Users - depot-1'));
  });

  it('logs out, then takes an expired user to change password', async () => {
    const expired = new ApiError({
      message: '401',
      status: 401,
      method: 'POST',
      url: '/x',
      body: {
        errors: [
          { status: 401, message: 'Your password has expired.', code: 'CREDENTIALS_EXPIRED' },
        ],
        code: 'CREDENTIALS_EXPIRED',
      },
    });
    const { router } = await start('/login?logout=true', admin, [
      [loginFx, async () => Promise.reject(expired)],
    ]);
    await screen.findByLabelText(/Username/);
    await userEvent.type(screen.getByLabelText(/Username/), 'jo');
    await userEvent.type(screen.getByLabelText(/Password/), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByLabelText(/Current Password/);
    expect(pathOf(router)).toBe('/login/change-password/jo');
  });

  it('sends a visitor browsing anonymously who opens the profile to / (spec 01 §2)', async () => {
    const withAnonymousAccess = { ...anonymous, anonAccessEnabled: true };
    const { router } = await start('/admin/artifactory/user_profile', withAnonymousAccess);
    // `/` is the home of a visitor when anonymous access is on
    await waitFor(() => expect(pathOf(router)).toBe(USER_HOME_PATH));
  });

  it('sends a signed-in user who opens /login home', async () => {
    const { router } = await start('/login', jo);
    await waitFor(() => expect(pathOf(router)).toBe(USER_HOME_PATH));
  });

  it('tells a non-admin "You are not authorized to view this page" and sends them home', async () => {
    const { router } = await start('/admin/management/groups', jo);
    await screen.findByText(NOT_AUTHORIZED_MESSAGE);
    expect(pathOf(router)).toBe(USER_HOME_PATH);
  });

  it('shows 404 for a path no route and no descriptor knows', async () => {
    const { router } = await start('/no/such/page', admin);
    await waitFor(() => expect(pathOf(router)).toBe('/404'));
    expect(screen.getByText('The object you were looking for could not be found.')).toBeTruthy();
  });

  it('names the missing service on a path of one Depot does not run', async () => {
    const { router } = await start('/bundles/source', jo);
    await screen.findByRole('heading', { level: 1, name: 'Release Bundles is not available' });
    expect(screen.getByText(/needs the Distribution service/)).toBeTruthy();
    expect(pathOf(router)).toBe('/bundles/source');
  });

  it("keeps a missing service's admin path for admins, and 404 for a path only starting alike", async () => {
    // An admin path of a missing service is still the admin area's: a user is sent home.
    const user = await start('/admin/mission_control/replications', jo);
    await screen.findByText(NOT_AUTHORIZED_MESSAGE);
    expect(pathOf(user.router)).toBe(USER_HOME_PATH);
    cleanup();
    await start('/admin/mission_control/replications', admin);
    await screen.findByRole('heading', {
      name: 'Platform Deployments and Federation is not available',
    });
    cleanup();
    // A prefix matches whole segments only.
    const near = await start('/bundlesque', admin);
    await waitFor(() => expect(pathOf(near.router)).toBe('/404'));
  });

  it('shows the not-authorized system page at /authorization', async () => {
    await start('/authorization', jo);
    expect(await screen.findByText(NOT_AUTHORIZED_MESSAGE)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Not Authorized - depot-1'));
  });

  it('lands an admin from / in the quick setup while it is offered, else on the topology', async () => {
    const offered = await start('/', admin, [
      [fetchOnboardingFx, async () => ({ quickSetup: 'pending', offerQuickSetup: true })],
    ]);
    await waitFor(() => expect(pathOf(offered.router)).toBe('/quick-setup'));
    expect((await screen.findByTestId('bespoke')).textContent).toBe('quick-setup list {}');
    cleanup();
    const settled = await start('/', admin);
    await waitFor(() => expect(pathOf(settled.router)).toBe('/admin/mission_control/topology'));
    expect((await screen.findByTestId('bespoke')).textContent).toBe('topology list {}');
    cleanup();
    const user = await start('/', jo);
    await waitFor(() => expect(pathOf(user.router)).toBe(USER_HOME_PATH));
  });

  it('shows admins the admin menu page: cards of grouped links, filtered by the search', async () => {
    await start('/admin/menu', admin);
    const monitoring = await screen.findByRole('region', { name: 'Monitoring' });
    expect(within(monitoring).getByRole('link', { name: 'Topology' }).getAttribute('href')).toBe(
      '/admin/mission_control/topology',
    );
    fireEvent.change(screen.getByLabelText('Search administration'), {
      target: { value: 'groups' },
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Monitoring' })).toBeNull());
    const userManagement = screen.getByRole('region', { name: 'User Management' });
    expect(
      within(userManagement)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Groups']);
  });

  it('redirects /admin to the users list and /500 entered directly to /', async () => {
    const first = await start('/admin', admin);
    await waitFor(() => expect(pathOf(first.router)).toBe('/admin/management/users'));
    const second = await start('/500', jo);
    await waitFor(() => expect(pathOf(second.router)).toBe(USER_HOME_PATH));
  });
});

describe('screens from descriptors, bespoke ones included', () => {
  const bespoke = async () => (await screen.findByTestId('bespoke')).textContent;

  it("gives a bespoke screen's pages to its component, with their parameters and titles", async () => {
    await start('/repos/tree/General/docs-local/a.txt', admin);
    expect(await bespoke()).toBe('tree-browser list {"browser":"tree"}');
    expect(screen.getByTestId('bespoke').dataset.rest).toBe('General/docs-local/a.txt');
    await waitFor(() => expect(document.title).toBe('Artifacts - depot-1'));
  });

  it('ranks paths as React Router does: layouts are no repository kind', async () => {
    const layouts = await start('/admin/repositories/layouts/new', admin);
    await waitFor(() => expect(document.title).toBe('Layouts - depot-1'));
    expect(screen.queryByTestId('bespoke')).toBeNull();
    expect(pathOf(layouts.router)).toBe('/admin/repositories/layouts/new');
    cleanup();
    await start('/admin/repositories/remote/new', admin);
    expect(await bespoke()).toBe('repositories new {"repoType":"remote"}');
  });

  it("renders a settings document's one form from its descriptor, and saves what changed", async () => {
    const general = {
      ...generalConfigScreen,
      entitySchema: generalSettingsSchema,
    } as unknown as SettingsDescriptor;
    const model = settingsModelOf(general);
    const saved: unknown[] = [];
    const { router } = await start('/admin/configuration/general', admin, [
      [fetchDescriptorFx, async () => general],
      [model.loadFx, async () => ({ offlineMode: false })],
      [model.saveFx, async (form: Record<string, unknown>) => (saved.push(form), form)],
    ]);
    // The settings page loads with rjsf, lazily: more than findBy's usual second.
    await screen.findByRole(
      'heading',
      { level: 1, name: 'General Configuration' },
      { timeout: 10000 },
    );
    await userEvent.click(await screen.findByLabelText(/Global Offline Mode/));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The whole document is saved (its other fields at their defaults), with the change.
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ offlineMode: true });
    expect(pathOf(router)).toBe('/admin/configuration/general');
    await waitFor(() => expect(document.title).toBe('General Configuration - depot-1'));
  });

  it("guards each page by its own permission: a target's manager lists but may not create", async () => {
    const manager = { ...jo, canManagePermissions: true };
    await start('/admin/management/permissions', manager);
    expect(await bespoke()).toBe('permissions list {}');
    cleanup();
    const create = await start('/admin/management/permissions/create', manager);
    await screen.findByText(NOT_AUTHORIZED_MESSAGE);
    expect(pathOf(create.router)).toBe(USER_HOME_PATH);
    cleanup();
    await start('/admin/management/permissions/create', admin);
    expect(await bespoke()).toBe('permissions new {}');
    await waitFor(() => expect(document.title).toBe('New Permission - depot-1'));
  });

  it('lists the bespoke screens in the sidebar by their descriptors, for whoever may open them', async () => {
    await start('/home', jo);
    const nav = await screen.findByRole('navigation', { name: LABELS.mainNavigation });
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Artifacts' })).toBeTruthy());
    expect(within(nav).getByRole('link', { name: 'Packages' }).getAttribute('href')).toBe(
      '/packages',
    );
    expect(within(nav).queryByRole('link', { name: 'Storage Summary' })).toBeNull();
    cleanup();
    await start('/home', admin);
    const adminNav = await screen.findByRole('navigation', { name: LABELS.mainNavigation });
    const storage = await within(adminNav).findByRole('link', { name: 'Storage Summary' });
    expect(storage.getAttribute('href')).toBe('/admin/monitoring/storage-summary');
    expect(within(adminNav).getByRole('link', { name: 'Repositories' }).getAttribute('href')).toBe(
      '/admin/repositories/local',
    );
  });
});

describe('unsaved-changes guard', () => {
  function renderForm(isDirty: () => boolean) {
    const router = createMemoryRouter(
      [
        {
          path: '/users/new',
          element: (
            <>
              <UnsavedChangesGuard isDirty={isDirty} />
              <Link to="/groups">Groups</Link>
              <Link to="/users/new/step-2">Next step</Link>
            </>
          ),
        },
        { path: '/users/new/step-2', element: <p>Step 2</p> },
        { path: '/groups', element: <p>Groups page</p> },
      ],
      { initialEntries: ['/users/new'] },
    );
    render(<RouterProvider router={router} />);
    return router;
  }

  it('asks "Discard Changes"; Cancel stays, Discard leaves', async () => {
    const router = renderForm(() => true);
    await userEvent.click(screen.getByRole('link', { name: 'Groups' }));
    const dialog = await screen.findByRole('alertdialog', { name: DISCARD_DIALOG.title });
    expect(dialog.textContent).toContain(
      'You have unsaved changes. Leaving this page will discard changes.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(pathOf(router)).toBe('/users/new');
    await userEvent.click(screen.getByRole('link', { name: 'Groups' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await screen.findByText('Groups page');
  });

  it('does not ask for a clean form', async () => {
    const router = renderForm(() => false);
    await userEvent.click(screen.getByRole('link', { name: 'Groups' }));
    await screen.findByText('Groups page');
    expect(pathOf(router)).toBe('/groups');
  });

  it('does not ask when moving to a sub-path of a dirty form', async () => {
    const router = renderForm(() => true);
    await userEvent.click(screen.getByRole('link', { name: 'Next step' }));
    await screen.findByText('Step 2');
    expect(pathOf(router)).toBe('/users/new/step-2');
  });
});
