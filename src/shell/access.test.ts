import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../api/auth';
import { canAccess, homePathFor, isAnonymous, safeReturnPath } from './access';
import { ADMIN_HOME_PATH, LOGIN_PATH, USER_HOME_PATH } from './messages';

const admin: CurrentUser = { name: 'admin', admin: true, anonymous: false };
const jo: CurrentUser = { name: 'jo', admin: false, anonymous: false };
const anonymous: CurrentUser = { name: 'anonymous', admin: false, anonymous: true };

describe('access', () => {
  it('takes a user without a name or named anonymous for anonymous', () => {
    expect(isAnonymous({ ...jo, name: '' })).toBe(true);
    expect(isAnonymous({ ...jo, name: 'anonymous' })).toBe(true);
    expect(isAnonymous(null)).toBe(true);
    expect(isAnonymous(jo)).toBe(false);
  });

  it('lets admins everywhere, users to user screens, visitors only where anonymous access is on', () => {
    expect(canAccess(admin, 'admin', false)).toBe(true);
    expect(canAccess(jo, 'admin', false)).toBe(false);
    expect(canAccess(jo, 'user', false)).toBe(true);
    expect(canAccess(anonymous, 'user', true)).toBe(false);
    expect(canAccess(anonymous, 'anonymous', true)).toBe(true);
    expect(canAccess(anonymous, 'anonymous', false)).toBe(false);
  });

  it("lets admins and a target's managers to managers' screens (spec 01 §6)", () => {
    expect(canAccess(admin, 'manager', false)).toBe(true);
    expect(canAccess({ ...jo, canManagePermissions: true }, 'manager', false)).toBe(true);
    expect(canAccess(jo, 'manager', false)).toBe(false);
    expect(canAccess({ ...anonymous, canManagePermissions: true }, 'manager', true)).toBe(false);
  });

  it('lands admins on the admin area, users home, visitors home or on login', () => {
    expect(homePathFor(admin, false)).toBe(ADMIN_HOME_PATH);
    expect(homePathFor(jo, false)).toBe(USER_HOME_PATH);
    expect(homePathFor(anonymous, true)).toBe(USER_HOME_PATH);
    expect(homePathFor(anonymous, false)).toBe(LOGIN_PATH);
  });

  it('returns only to console paths that are not login pages', () => {
    expect(safeReturnPath('/admin/management/users?x=1')).toBe('/admin/management/users?x=1');
    expect(safeReturnPath('//evil.example')).toBeUndefined();
    expect(safeReturnPath('https://evil.example')).toBeUndefined();
    expect(safeReturnPath('/login?logout=true')).toBeUndefined();
    expect(safeReturnPath('/logout')).toBeUndefined();
    expect(safeReturnPath(undefined)).toBeUndefined();
  });
});
