import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { adminUser, plainUser } from '../session/testUsers';
import { navigateFx } from '../navigation/model';
import { ADMIN_HOME_PATH, ONBOARDING_PATH, QUICK_SETUP_PATH, USER_HOME_PATH } from '../messages';
import { homePathFor } from '../access';
import { fetchCurrentUserFx, loginFx, loginSubmitted } from '../session/model';
import {
  $offerQuickSetup,
  fetchOnboardingFx,
  homeOpened,
  landAdminFx,
  quickSetupSettled,
} from './model';

const pending = { quickSetup: 'pending', offerQuickSetup: true } as const;
const done = { quickSetup: 'done', offerQuickSetup: false } as const;

function signInAs(user: typeof adminUser, onboarding: () => Promise<unknown>, returnTo?: string) {
  const navigate = vi.fn();
  const land = vi.fn(onboarding);
  const scope = fork({
    handlers: [
      [loginFx, async () => user],
      [landAdminFx, land],
      [navigateFx, navigate],
    ],
  });
  const settled = allSettled(loginSubmitted, {
    scope,
    params: { user: user.name, password: 'pw', returnTo },
  });
  return { scope, navigate, land, settled };
}

describe('where an admin lands (spec 01 §2, docs/onboarding.md)', () => {
  it('is the quick setup at the first login, while it is offered', async () => {
    const { navigate, settled, scope } = signInAs(adminUser, async () => pending);
    await settled;
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith({ to: QUICK_SETUP_PATH, replace: true });
    expect(scope.getState($offerQuickSetup)).toBe(true);
  });

  it('is the personalisation wizard first, while this admin has not answered or skipped it', async () => {
    const { navigate, settled } = signInAs(adminUser, async () => ({
      ...pending,
      offerPersonalization: true,
    }));
    await settled;
    expect(navigate).toHaveBeenCalledWith({ to: ONBOARDING_PATH, replace: true });
    expect(homePathFor(adminUser, false, true, true)).toBe(ONBOARDING_PATH);
    expect(homePathFor(plainUser, false, true, true)).toBe(USER_HOME_PATH);
  });

  it('is the topology once the quick setup was done or skipped, or its state is unknown', async () => {
    const afterDone = signInAs(adminUser, async () => done);
    await afterDone.settled;
    expect(afterDone.navigate).toHaveBeenCalledWith({ to: ADMIN_HOME_PATH, replace: true });
    const unknown = signInAs(adminUser, () => Promise.reject(new Error('offline')));
    await unknown.settled;
    expect(unknown.navigate).toHaveBeenCalledWith({ to: ADMIN_HOME_PATH, replace: true });
    expect(ADMIN_HOME_PATH).toBe('/admin/mission_control/topology');
  });

  it('is the page asked for, when there was one, without asking about onboarding', async () => {
    const { navigate, land, settled } = signInAs(
      adminUser,
      async () => pending,
      '/admin/management/groups',
    );
    await settled;
    expect(land).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith({ to: '/admin/management/groups', replace: true });
  });

  it('never asks about onboarding for a user, who lands on packages', async () => {
    const { navigate, land, settled } = signInAs(plainUser, async () => pending);
    await settled;
    expect(land).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith({ to: USER_HOME_PATH, replace: true });
    expect(homePathFor(plainUser, false, true)).toBe(USER_HOME_PATH);
  });

  it('asks when / opens before the console knows, and only then', async () => {
    const fetch = vi.fn(async () => done);
    const scope = fork({ handlers: [[fetchOnboardingFx, fetch]] });
    await allSettled(homeOpened, { scope });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(scope.getState($offerQuickSetup)).toBe(false);
    await allSettled(homeOpened, { scope });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('knows at start whether to offer it, and stops offering once it is settled', async () => {
    const scope = fork({
      handlers: [
        [fetchCurrentUserFx, async () => adminUser],
        [fetchOnboardingFx, async () => pending],
      ],
    });
    await allSettled(fetchCurrentUserFx, { scope });
    expect(scope.getState($offerQuickSetup)).toBe(true);
    expect(homePathFor(adminUser, false, true)).toBe(QUICK_SETUP_PATH);
    await allSettled(quickSetupSettled, { scope });
    expect(scope.getState($offerQuickSetup)).toBe(false);
  });
});
