import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Provider } from 'effector-react';
import { fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { RepoKind, RepositoryFormModel } from '../../api/repositories';
import { attachRouter } from '../../shell/navigation/model';
import { dismissLaterFx } from '../../shell/notifications/model';
import RepositoryFormPage from './RepositoryFormPage';
import { checkKeyFx, loadChoicesFx, saveFx } from './formModel';
import { DOCKER_HUB_HINT } from '../../../server/formats/docker/docker-hub.ts';
import {
  DISCARD_CHANGES_TEXT,
  REPO_KEY_MESSAGES,
  REPO_LABELS,
  REQUIRED_FIELD_MESSAGE,
} from './messages';

const packageTypes = [
  { value: 'generic', text: 'Generic', icon: 'generic', defaultLayout: 'simple-default' },
  { value: 'docker', text: 'Docker', icon: 'docker', defaultLayout: 'simple-default' },
];
const layouts = [{ name: 'simple-default', builtIn: true }];

afterEach(cleanup);

/** The form page on a scope whose server calls are stubs; `save` records what was sent. */
function start(kind: RepoKind, overrides: Array<[unknown, unknown]> = []) {
  const save = vi.fn(async (_: { model: RepositoryFormModel }) => ({ info: 'saved' }));
  const checkKey = vi.fn(async (query: { repoKey: string }) => ({
    key: query.repoKey,
    answer: { valid: true },
  }));
  const scope = fork({
    handlers: new Map<unknown, unknown>([
      [loadChoicesFx, async () => ({ packageTypes, layouts })],
      [checkKeyFx, checkKey],
      [saveFx, save],
      [dismissLaterFx, async () => -1],
      ...overrides,
    ]) as never,
  });
  const router = createMemoryRouter(
    [
      { path: '/new', element: <RepositoryFormPage kind={kind} /> },
      { path: `/admin/repositories/${kind}`, element: <p>list</p> },
      { path: '/elsewhere', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/new'] },
  );
  attachRouter(router);
  render(
    <Provider value={scope}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router, save, checkKey };
}

async function pick(type: string) {
  await userEvent.click(await screen.findByRole('button', { name: new RegExp(type) }));
  return screen.findByLabelText(/Repository Key/);
}

describe('the repository form', () => {
  it('offers the package types, then checks the key as it is typed', async () => {
    start('local');
    const key = await pick('Docker');
    await userEvent.type(key, 'Images');
    expect(await screen.findByText(REPO_KEY_MESSAGES.dockerLowercase)).toBeTruthy();
    await userEvent.clear(key);
    await userEvent.type(key, '1images');
    expect(await screen.findByText(REPO_KEY_MESSAGES.startsWithNumber)).toBeTruthy();
    await userEvent.clear(key);
    await userEvent.type(key, 'my images');
    expect(await screen.findByText(REPO_KEY_MESSAGES.illegalCharacters)).toBeTruthy();
    await userEvent.clear(key);
    await userEvent.type(key, 'images-cache');
    expect(await screen.findByText(REPO_KEY_MESSAGES.localCacheSuffix)).toBeTruthy();
  });

  it('says a name is required when saving without one, and sends nothing', async () => {
    const { save } = start('local');
    await pick('Generic');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(REPO_KEY_MESSAGES.required)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it('shows what the server says about the key, once typing pauses', async () => {
    const { save } = start('local', [
      [
        checkKeyFx,
        async (query: { repoKey: string }) => ({
          key: query.repoKey,
          answer: { valid: false, error: `Repository '${query.repoKey}' already exists` },
        }),
      ],
    ]);
    const key = await pick('Generic');
    await userEvent.type(key, 'libs');
    expect(await screen.findByText("Repository 'libs' already exists")).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(save).not.toHaveBeenCalled();
  });

  it('needs a URL for a remote repository', async () => {
    const { save } = start('remote');
    const key = await pick('Generic');
    await userEvent.type(key, 'upstream');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(REQUIRED_FIELD_MESSAGE)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it("asks 'Are you sure?' before saving a remote Docker repository that pulls anonymously", async () => {
    const { save, router } = start('remote');
    const key = await pick('Docker');
    await userEvent.type(key, 'docker-anonymous');
    await userEvent.type(screen.getByLabelText(/URL/), 'https://registry.example');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you sure?' });
    expect(within(dialog).getByText(REPO_LABELS.anonymousDockerText)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
    // Cancel keeps the form as it was, unsaved.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(save).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('alertdialog', { name: 'Are you sure?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/repositories/remote'));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0][0].model.remote).toMatchObject({ url: 'https://registry.example' });
  }, 15_000);

  it('saves a remote of another package type without credentials, asking nothing', async () => {
    const { save } = start('remote');
    const key = await pick('Generic');
    await userEvent.type(key, 'generic-anonymous');
    await userEvent.type(screen.getByLabelText(/URL/), 'https://files.example');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  }, 15_000);

  it('hints at upstream credentials until a user name is given, and sends them', async () => {
    const { save, router } = start('remote');
    const key = await pick('Docker');
    await userEvent.type(key, 'docker-hub');
    const url = screen.getByLabelText(/URL/);
    await userEvent.type(url, 'https://registry.example');
    expect(screen.getByText(DOCKER_HUB_HINT).getAttribute('role')).toBe('note');
    await userEvent.type(screen.getByLabelText('User Name'), 'team');
    expect(screen.queryByText(DOCKER_HUB_HINT)).toBeNull();
    await userEvent.type(screen.getByLabelText('Password / Access Token'), 'hub-token');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/repositories/remote'));
    expect(save.mock.calls[0][0].model.remote).toMatchObject({
      url: 'https://registry.example',
      username: 'team',
      password: 'hub-token',
    });
  }, 15_000);

  it('saves the form model and returns to the list', async () => {
    const { save, router } = start('local');
    const key = await pick('Generic');
    await userEvent.type(key, 'team-local');
    await userEvent.type(screen.getByLabelText('Public Description'), 'Team files');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/repositories/local'));
    expect(save.mock.calls[0][0].model).toMatchObject({
      type: 'local',
      general: { repoKey: 'team-local' },
      typeSpecific: { repoType: 'generic' },
      basic: { layout: 'simple-default', includesPattern: '**/*', publicDescription: 'Team files' },
      advanced: { allowContentBrowsing: false },
    });
  });

  it("shows the server's error on the field it names", async () => {
    const refused = new ApiError({
      message: '400',
      status: 400,
      method: 'POST',
      url: '/x',
      body: { errors: [{ status: 400, message: 'Name is reserved', field: 'general.repoKey' }] },
    });
    start('local', [[saveFx, async () => Promise.reject(refused)]]);
    const key = await pick('Generic');
    await userEvent.type(key, 'api');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is reserved')).toBeTruthy();
  });

  it('asks before discarding changes', async () => {
    const { router } = start('local');
    const key = await pick('Generic');
    await userEvent.type(key, 'half-done');
    void router.navigate('/elsewhere');
    expect(await screen.findByText(DISCARD_CHANGES_TEXT)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/new');
  });
});
