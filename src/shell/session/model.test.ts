import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import { adminUser, anonymousUser, plainUser } from './testUsers';
import { navigateFx } from '../navigation/model';
import {
  ADMIN_HOME_PATH,
  IDLE_TIMEOUT_MS,
  PASSWORDS_MUST_BE_EQUAL,
  SESSION_EXPIRED_PATH,
  USER_HOME_PATH,
} from '../messages';
import {
  $bootstrapped,
  $changePasswordError,
  $currentUser,
  $footer,
  $loginError,
  appStarted,
  changePasswordFx,
  checkSessionFx,
  fetchCurrentUserFx,
  fetchFooterFx,
  fetchLoginDataFx,
  loggedOut,
  loginFx,
  loginSubmitted,
  logoutFx,
  passwordChangeSubmitted,
  userActivityDetected,
} from './model';
import { landAdminFx } from '../onboarding/model';

const admin = adminUser;
const jo = plainUser;
const anonymous = anonymousUser;
const failure = (status: number, body: unknown) =>
  new ApiError({
    message: `status ${status}`,
    status,
    body,
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
  });

/** A scope where every server call is a stub and navigation is recorded. */
function setup(overrides: Array<[unknown, unknown]> = [], values: Array<[unknown, unknown]> = []) {
  const navigate = vi.fn();
  const handlers = new Map<unknown, unknown>([
    [fetchCurrentUserFx, async () => anonymous],
    [
      fetchFooterFx,
      async () => ({
        serverName: 'depot-1',
        versionID: '0.1.0',
        isAol: false,
        anonAccessEnabled: false,
      }),
    ],
    [
      fetchLoginDataFx,
      async () => ({ forgotPassword: false, rememberMeEnabled: true, oauthProviders: [] }),
    ],
    [navigateFx, navigate],
    ...overrides,
  ]);
  const scope = fork({ handlers: handlers as never, values: new Map(values) as never });
  return { scope, navigate };
}

describe('session model', () => {
  it('learns the user and the footer when the app starts', async () => {
    const { scope } = setup([[fetchCurrentUserFx, async () => admin]]);
    expect(scope.getState($bootstrapped)).toBe(false);
    await allSettled(appStarted, { scope });
    expect(scope.getState($currentUser)).toEqual(admin);
    expect(scope.getState($footer)?.serverName).toBe('depot-1');
    expect(scope.getState($bootstrapped)).toBe(true);
  });

  it('still starts, as anonymous, when /ui/auth/current cannot be reached', async () => {
    const { scope } = setup([
      [fetchCurrentUserFx, async () => Promise.reject(new Error('offline'))],
    ]);
    await allSettled(appStarted, { scope });
    expect(scope.getState($currentUser)?.anonymous).toBe(true);
    expect(scope.getState($bootstrapped)).toBe(true);
  });

  it('logs in and goes to the remembered page', async () => {
    const login = vi.fn(async () => jo);
    const { scope, navigate } = setup([[loginFx, login]]);
    await allSettled(loginSubmitted, {
      scope,
      params: {
        user: 'jo',
        password: 'pw',
        rememberMe: true,
        returnTo: '/admin/management/groups',
      },
    });
    expect(login).toHaveBeenCalledWith({ user: 'jo', password: 'pw', rememberMe: true });
    expect(scope.getState($currentUser)).toEqual(jo);
    expect(navigate).toHaveBeenCalledWith({ to: '/admin/management/groups', replace: true });
  });

  it('lands admins on the topology and users on packages when nothing was remembered', async () => {
    const asAdmin = setup([
      [loginFx, async () => admin],
      [landAdminFx, async () => ({ quickSetup: 'done', offerQuickSetup: false })],
    ]);
    await allSettled(loginSubmitted, {
      scope: asAdmin.scope,
      params: { user: 'admin', password: 'pw' },
    });
    expect(asAdmin.navigate).toHaveBeenCalledWith({ to: ADMIN_HOME_PATH, replace: true });
    const asUser = setup([[loginFx, async () => jo]]);
    await allSettled(loginSubmitted, {
      scope: asUser.scope,
      params: { user: 'jo', password: 'pw', returnTo: '/login' },
    });
    expect(asUser.navigate).toHaveBeenCalledWith({ to: USER_HOME_PATH, replace: true });
  });

  it('shows the server message on a failed login and stays', async () => {
    const body = { errors: [{ status: 401, message: 'Bad credentials' }] };
    const { scope, navigate } = setup([[loginFx, async () => Promise.reject(failure(401, body))]]);
    await allSettled(loginSubmitted, { scope, params: { user: 'jo', password: 'bad' } });
    expect(scope.getState($loginError)).toBe('Bad credentials');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows the 403 message of a user without UI access', async () => {
    const body = { errors: [{ status: 403, message: 'UI access is disabled for this user' }] };
    const { scope } = setup([[loginFx, async () => Promise.reject(failure(403, body))]]);
    await allSettled(loginSubmitted, { scope, params: { user: 'jo', password: 'pw' } });
    expect(scope.getState($loginError)).toBe('UI access is disabled for this user');
  });

  it('goes to change password when the credentials expired', async () => {
    const body = {
      code: 'CREDENTIALS_EXPIRED',
      errors: [{ status: 401, message: 'Expired', code: 'CREDENTIALS_EXPIRED' }],
    };
    const { scope, navigate } = setup([[loginFx, async () => Promise.reject(failure(401, body))]]);
    await allSettled(loginSubmitted, { scope, params: { user: 'jo doe', password: 'old' } });
    expect(navigate).toHaveBeenCalledWith({ to: '/login/change-password/jo%20doe' });
    expect(scope.getState($loginError)).toBeNull();
  });

  it('refuses different new passwords without calling the server', async () => {
    const change = vi.fn();
    const { scope } = setup([[changePasswordFx, change]]);
    await allSettled(passwordChangeSubmitted, {
      scope,
      params: { userName: 'jo', oldPassword: 'a', newPassword1: 'b', newPassword2: 'c' },
    });
    expect(scope.getState($changePasswordError)).toBe(PASSWORDS_MUST_BE_EQUAL);
    expect(change).not.toHaveBeenCalled();
  });

  it('changes the password, then logs in with the new one and lands home', async () => {
    const change = vi.fn(async () => undefined);
    const login = vi.fn(async () => jo);
    const { scope, navigate } = setup([
      [changePasswordFx, change],
      [loginFx, login],
    ]);
    const params = {
      userName: 'jo',
      oldPassword: 'old',
      newPassword1: 'newpass123',
      newPassword2: 'newpass123',
    };
    await allSettled(passwordChangeSubmitted, { scope, params });
    expect(change).toHaveBeenCalledWith(params);
    expect(login).toHaveBeenCalledWith({ user: 'jo', password: 'newpass123' });
    expect(navigate).toHaveBeenCalledWith({ to: USER_HOME_PATH, replace: true });
  });

  it('falls back to "Failed to change password" when the server says nothing', async () => {
    const { scope } = setup([
      [changePasswordFx, async () => Promise.reject(failure(401, undefined))],
    ]);
    await allSettled(passwordChangeSubmitted, {
      scope,
      params: { userName: 'jo', oldPassword: 'x', newPassword1: 'y', newPassword2: 'y' },
    });
    expect(scope.getState($changePasswordError)).toBe('Failed to change password');
  });

  it('logs out and asks again who the user is', async () => {
    const logout = vi.fn(async () => undefined);
    const { scope } = setup([[logoutFx, logout]], [[$currentUser, jo]]);
    await allSettled(loggedOut, { scope });
    expect(logout).toHaveBeenCalled();
    expect(scope.getState($currentUser)).toEqual(anonymous);
  });

  describe('session check after inactivity', () => {
    it('does not check while the user keeps being active', async () => {
      const check = vi.fn(async () => jo);
      const { scope } = setup([[checkSessionFx, check]], [[$currentUser, jo]]);
      await allSettled(userActivityDetected, { scope, params: 1_000 });
      await allSettled(userActivityDetected, { scope, params: 1_000 + IDLE_TIMEOUT_MS - 1 });
      expect(check).not.toHaveBeenCalled();
    });

    it('checks on the first activity after the idle timeout, and stays when still signed in', async () => {
      const check = vi.fn(async () => jo);
      const { scope, navigate } = setup([[checkSessionFx, check]], [[$currentUser, jo]]);
      await allSettled(userActivityDetected, { scope, params: 1_000 });
      await allSettled(userActivityDetected, { scope, params: 1_000 + IDLE_TIMEOUT_MS });
      expect(check).toHaveBeenCalledTimes(1);
      expect(navigate).not.toHaveBeenCalled();
    });

    it('goes to login with logout and fromUnauthorized when the session is gone', async () => {
      const { scope, navigate } = setup(
        [[checkSessionFx, async () => anonymous]],
        [[$currentUser, jo]],
      );
      await allSettled(userActivityDetected, { scope, params: 0 + 5 });
      await allSettled(userActivityDetected, { scope, params: 5 + IDLE_TIMEOUT_MS + 1 });
      expect(navigate).toHaveBeenCalledWith({ to: SESSION_EXPIRED_PATH, rememberCurrent: true });
      expect(SESSION_EXPIRED_PATH).toBe('/login?logout=true&fromUnauthorized=true');
    });

    it('never checks for an anonymous visitor', async () => {
      const check = vi.fn(async () => anonymous);
      const { scope } = setup([[checkSessionFx, check]], [[$currentUser, anonymous]]);
      await allSettled(userActivityDetected, { scope, params: 1 });
      await allSettled(userActivityDetected, { scope, params: 1 + 10 * IDLE_TIMEOUT_MS });
      expect(check).not.toHaveBeenCalled();
    });
  });
});
