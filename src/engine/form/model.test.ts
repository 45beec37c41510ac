import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import { navigateFx } from '../../shell/navigation/model';
import { groupsDescriptor, usersDescriptor } from '../testing';
import {
  $choices,
  $dirty,
  $formData,
  $initialData,
  $loadError,
  $serverErrors,
  formActionClicked,
  formChanged,
  formOpened,
  formSubmitted,
  loadChoicesFx,
  loadEntityFx,
  runFormActionFx,
  saveFx,
} from './model';

function setup(overrides: Array<[unknown, unknown]> = []) {
  const navigate = vi.fn();
  const handlers = new Map<unknown, unknown>([
    [navigateFx, navigate],
    [dismissLaterFx, async () => -1], // toasts stay, so the test can read them
    [loadChoicesFx, async () => ({ groups: ['readers'] })],
    [
      loadEntityFx,
      async () => ({ name: 'jo', email: 'jo@x.io', realm: 'internal', groups: ['readers'] }),
    ],
    ...overrides,
  ]);
  return { scope: fork({ handlers: handlers as never }), navigate };
}
const texts = (scope: ReturnType<typeof fork>) =>
  scope.getState($notifications).map((n) => `${n.kind}: ${n.text}`);

describe('form model', () => {
  it('starts a new entity from the schema defaults, clean, with the choices loaded', async () => {
    const { scope } = setup();
    await allSettled(formOpened, {
      scope,
      params: { descriptor: usersDescriptor, mode: 'create' },
    });
    expect(scope.getState($formData)).toEqual({
      admin: false,
      profileUpdatable: true,
      disableUIAccess: false,
      internalPasswordDisabled: false,
    });
    expect(scope.getState($choices)).toEqual({ groups: ['readers'] });
    expect(scope.getState($dirty)).toBe(false);
  });

  it('loads the edited entity and becomes dirty only on a real change', async () => {
    const { scope } = setup();
    await allSettled(formOpened, {
      scope,
      params: { descriptor: usersDescriptor, mode: 'edit', key: 'jo' },
    });
    expect(scope.getState($initialData)).toMatchObject({ name: 'jo', email: 'jo@x.io' });
    expect(scope.getState($initialData)).not.toHaveProperty('realm');
    await allSettled(formChanged, {
      scope,
      params: { ...scope.getState($formData), password: '' },
    });
    expect(scope.getState($dirty)).toBe(false);
    await allSettled(formChanged, {
      scope,
      params: { ...scope.getState($formData), email: 'new@x.io' },
    });
    expect(scope.getState($dirty)).toBe(true);
  });

  it('saves, says "created", is clean again and goes back to the list', async () => {
    const save = vi.fn(async () => undefined);
    const { scope, navigate } = setup([[saveFx, save]]);
    await allSettled(formOpened, {
      scope,
      params: { descriptor: groupsDescriptor, mode: 'create' },
    });
    await allSettled(formChanged, { scope, params: { name: 'devs' } });
    await allSettled(formSubmitted, { scope, params: { name: 'devs' } });
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ payload: { name: 'devs' } }));
    expect(texts(scope)).toEqual(["success: Group 'devs' created"]);
    expect(scope.getState($dirty)).toBe(false);
    expect(navigate).toHaveBeenCalledWith({ to: '/admin/management/groups' });
  });

  it("says a save in the descriptor's words when it words them", async () => {
    const { scope } = setup([[saveFx, async () => undefined]]);
    const descriptor = {
      ...groupsDescriptor,
      form: { ...groupsDescriptor.form, savedMessage: 'Policy saved successfully' },
    };
    await allSettled(formOpened, { scope, params: { descriptor, mode: 'create' } });
    await allSettled(formSubmitted, { scope, params: { name: 'devs' } });
    expect(texts(scope)).toEqual(['success: Policy saved successfully']);
  });

  it("says a failed read, save or choice list in the descriptor's words when the answer has none", async () => {
    const bare = (method: string) =>
      new ApiError({ message: 'status 400', status: 400, method, url: '/x', body: '' });
    const { scope } = setup([
      [loadEntityFx, () => Promise.reject(bare('GET'))],
      [saveFx, () => Promise.reject(bare('PUT'))],
      [loadChoicesFx, () => Promise.reject(bare('GET'))],
    ]);
    const descriptor = {
      ...groupsDescriptor,
      form: {
        ...groupsDescriptor.form,
        options: { users: { path: '/ui/users', valueKey: 'name' } },
        loadFailedMessage: 'Error while fetch policy. Please check Artifactory logs.',
        saveFailedMessage: 'Error while save policy. Please check Artifactory logs.',
        choicesFailedMessage: 'Error while fetch repositories list. Please check Artifactory logs.',
      },
    };
    await allSettled(formOpened, { scope, params: { descriptor, mode: 'edit', key: 'devs' } });
    expect(scope.getState($loadError)).toBe(
      'Error while fetch policy. Please check Artifactory logs.',
    );
    await allSettled(formSubmitted, { scope, params: { name: 'devs' } });
    expect(texts(scope).sort()).toEqual([
      'error: Error while fetch policy. Please check Artifactory logs.',
      'error: Error while fetch repositories list. Please check Artifactory logs.',
      'error: Error while save policy. Please check Artifactory logs.',
    ]);
  });

  it('puts a conflict naming a field on that field, until the field is edited', async () => {
    const conflict = new ApiError({
      message: 'status 409',
      status: 409,
      method: 'POST',
      url: '/x',
      body: { errors: [{ status: 409, message: "User 'jo' already exists", field: 'name' }] },
    });
    const { scope, navigate } = setup([[saveFx, async () => Promise.reject(conflict)]]);
    await allSettled(formOpened, {
      scope,
      params: { descriptor: usersDescriptor, mode: 'create' },
    });
    await allSettled(formChanged, { scope, params: { name: 'jo' } });
    await allSettled(formSubmitted, { scope, params: { name: 'jo' } });
    expect(scope.getState($serverErrors)).toEqual({ name: ["User 'jo' already exists"] });
    expect(texts(scope)).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
    await allSettled(formChanged, { scope, params: { name: 'jo2' } });
    expect(scope.getState($serverErrors)).toEqual({});
  });

  it('shows a refusal that names no field as a notification', async () => {
    const refusal = new ApiError({
      message: 'status 400',
      status: 400,
      method: 'PUT',
      url: '/x',
      body: { errors: [{ status: 400, message: 'You cannot remove your own admin privileges' }] },
    });
    const { scope } = setup([[saveFx, async () => Promise.reject(refusal)]]);
    await allSettled(formOpened, {
      scope,
      params: { descriptor: usersDescriptor, mode: 'edit', key: 'admin' },
    });
    await allSettled(formSubmitted, { scope, params: { name: 'admin', admin: false } });
    expect(texts(scope)).toEqual(['error: You cannot remove your own admin privileges']);
  });

  it('goes to the 404 page when the edited entity does not exist', async () => {
    const missing = new ApiError({
      message: 'status 404',
      status: 404,
      method: 'GET',
      url: '/ui/users/ghost',
      body: { errors: [{ status: 404, message: "User 'ghost' could not be found." }] },
    });
    const { scope, navigate } = setup([[loadEntityFx, async () => Promise.reject(missing)]]);
    await allSettled(formOpened, {
      scope,
      params: { descriptor: usersDescriptor, mode: 'edit', key: 'ghost' },
    });
    expect(navigate).toHaveBeenCalledWith({ to: '/404', replace: true });
    expect(texts(scope)).toEqual([]);
  });

  it('says why an entity it may not load is not shown, instead of loading forever', async () => {
    const refused = new ApiError({
      message: 'status 403',
      status: 403,
      method: 'GET',
      url: '/ui/groups/secret',
      body: { errors: [{ status: 403, message: 'Forbidden' }] },
    });
    const { scope, navigate } = setup([[loadEntityFx, async () => Promise.reject(refused)]]);
    await allSettled(formOpened, {
      scope,
      params: { descriptor: groupsDescriptor, mode: 'edit', key: 'secret' },
    });
    expect(scope.getState($initialData)).toBeNull();
    expect(scope.getState($loadError)).toBe('Forbidden');
    expect(navigate).not.toHaveBeenCalled();
  });

  it("tells a form action's answer, its refusal and a gateway's 502 or 504 in the descriptor's words", async () => {
    const action = {
      id: 'test',
      label: 'Test',
      method: 'POST' as const,
      path: '/ui/webhooks/test',
      successMessage: 'A dummy hook was executed and sent to the configured URL',
      failureMessage: 'Sending a dummy Webhook failed',
      unreachableMessage: 'Request failed, unable to test Webhook.',
    };
    const failing = (status: number | undefined, body?: unknown) => async () => {
      throw new ApiError({ message: 'failed', status, body, method: 'POST', url: action.path });
    };
    const answers: Array<[() => Promise<unknown>, string]> = [
      [async () => undefined, `success: ${action.successMessage}`],
      [
        failing(400, {
          errors: [{ message: 'Sending a dummy Webhook failed: the URL answered 500' }],
        }),
        'error: Sending a dummy Webhook failed: the URL answered 500',
      ],
      [failing(400, ''), `error: ${action.failureMessage}`],
      [failing(502), `error: ${action.unreachableMessage}`],
      [failing(504), `error: ${action.unreachableMessage}`],
      [failing(undefined), `error: ${action.unreachableMessage}`],
    ];
    for (const [handler, shown] of answers) {
      const { scope } = setup([[runFormActionFx, handler]]);
      await allSettled(formActionClicked, { scope, params: { action, payload: {} } });
      expect(texts(scope)).toEqual([shown]);
    }
  });
});
