import { createEvent } from 'effector';
import type { CurrentUser } from '../../api/auth';
import type { ScreenSummary } from '../../api/descriptor';
import { resolveScreenView } from '../../engine/screenPaths';
import { canAccess, isAnonymous } from '../access';
import { LOGOUT_PATH, QUICK_SETUP_PATH } from '../messages';

/** Set Me Up is a feature's panel: the menu asks for it, the feature opens it. */
export const setMeUpRequested = createEvent();

export interface QuickAction {
  id: string;
  label: string;
  /** Where it goes; none for Set Me Up, which opens its panel. */
  route?: string;
  separatorBefore?: boolean;
}

/**
 * Spec 01 §2's quick actions, in its order. "Cloud Subscription and Usage" is cloud-only
 * and Depot is never a cloud instance, so it is not listed; no lightweight edition exists.
 */
const QUICK_ACTIONS: QuickAction[] = [
  { id: 'getting-started', label: 'Getting Started', route: QUICK_SETUP_PATH },
  { id: 'quick-repository-creation', label: 'Quick Repository Creation', route: QUICK_SETUP_PATH },
  { id: 'set-me-up', label: 'Set Me Up' },
  {
    id: 'new-local',
    label: 'New Local Repository',
    route: '/admin/repositories/local/new',
    separatorBefore: true,
  },
  { id: 'new-remote', label: 'New Remote Repository', route: '/admin/repositories/remote/new' },
  { id: 'new-virtual', label: 'New Virtual Repository', route: '/admin/repositories/virtual/new' },
  { id: 'new-user', label: 'New User', route: '/admin/management/users/new' },
  { id: 'new-group', label: 'New Group', route: '/admin/management/groups/new' },
  { id: 'new-permission', label: 'New Permission', route: '/admin/management/permissions/create' },
  {
    id: 'edit-profile',
    label: 'Edit Profile',
    route: '/admin/artifactory/user_profile',
    separatorBefore: true,
  },
  { id: 'logout', label: 'Logout', route: LOGOUT_PATH },
];

/**
 * The quick actions this user may take: a page's action only where its screen exists and
 * its descriptor lets the user open it (Getting Started, Quick Repository Creation and New
 * Permission are admins'; the repository ones admins'); Set Me Up for everyone signed in,
 * Edit Profile and Logout too. A separator only before an item that follows another.
 */
export function buildQuickActions(
  screens: ScreenSummary[],
  user: CurrentUser | null,
  anonAccessEnabled: boolean,
): QuickAction[] {
  if (isAnonymous(user)) return [];
  const allowed = QUICK_ACTIONS.filter((action) => {
    if (action.route === undefined || action.route === LOGOUT_PATH) return true;
    const view = resolveScreenView(action.route, screens);
    return view !== undefined && canAccess(user, view.route.permission, anonAccessEnabled);
  });
  return allowed.map((action, index) => ({
    ...action,
    separatorBefore: index > 0 && action.separatorBefore,
  }));
}
