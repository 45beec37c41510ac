import type { CurrentUser } from '../api/auth';
import type { Permission } from '../api/descriptor';
import {
  ADMIN_HOME_PATH,
  LOGIN_PATH,
  ONBOARDING_PATH,
  QUICK_SETUP_PATH,
  USER_HOME_PATH,
} from './messages';

/** A user with no name or the name anonymous is anonymous (spec 01 §3). */
export function isAnonymous(user: CurrentUser | null): boolean {
  return !user || user.anonymous || !user.name || user.name === 'anonymous';
}

/** The react-admin style question: may this user use something that needs `permission`? */
export function canAccess(
  user: CurrentUser | null,
  permission: Permission,
  anonAccessEnabled: boolean,
): boolean {
  if (permission === 'anonymous') return !isAnonymous(user) || anonAccessEnabled;
  if (isAnonymous(user)) return false;
  if (permission === 'manager') return user?.admin === true || user?.canManagePermissions === true;
  // Whether a project admin may depends on the project selected: ScreenGuard asks that.
  if (permission === 'projectAdmin') return user?.admin === true;
  return permission === 'user' || user?.admin === true;
}

/**
 * Where a user lands (spec 01 §2): admins on the topology, or in the quick setup while it
 * is offered (first login, docs/onboarding.md); users on packages; visitors on packages
 * where anonymous access is on, else at login.
 */
export function homePathFor(
  user: CurrentUser | null,
  anonAccessEnabled: boolean,
  offerQuickSetup = false,
  offerPersonalization = false,
): string {
  if (isAnonymous(user)) return anonAccessEnabled ? USER_HOME_PATH : LOGIN_PATH;
  return user?.admin ? landingPathFor(offerQuickSetup, offerPersonalization) : USER_HOME_PATH;
}

/**
 * An admin's landing: the personalisation wizard while this admin has neither answered nor
 * skipped it, then the quick setup while it is offered, else the topology.
 */
export const landingPathFor = (offerQuickSetup: boolean, offerPersonalization = false) =>
  offerPersonalization ? ONBOARDING_PATH : offerQuickSetup ? QUICK_SETUP_PATH : ADMIN_HOME_PATH;

/** Only paths inside the console, and never back to a login page, are return targets. */
export function safeReturnPath(path: string | undefined): string | undefined {
  if (!path || !path.startsWith('/') || path.startsWith('//')) return undefined;
  if (path === LOGIN_PATH || path.startsWith(`${LOGIN_PATH}/`) || path.startsWith(`${LOGIN_PATH}?`))
    return undefined;
  if (path.startsWith('/auth') || path.startsWith('/logout')) return undefined;
  return path;
}
