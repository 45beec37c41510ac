import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useUnit } from 'effector-react';
import type { Permission } from '../../api/descriptor';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { notificationShown } from '../notifications/model';
import { canAccess, homePathFor, isAnonymous } from '../access';
import { LOGIN_PATH, NOT_AUTHORIZED_MESSAGE } from '../messages';
import type { ReturnState } from '../navigation/model';

/**
 * Renders its children only for users who may: a visitor who is not signed in goes to
 * login (which brings them back here), a signed-in user without the right is told
 * "You are not authorized to view this page" and sent home.
 */
export function RequireAccess({
  permission,
  anonymousTo,
  children,
}: {
  permission: Permission;
  /** Where a visitor not signed in goes instead of login (the profile: `/`, spec 01 §2). */
  anonymousTo?: string;
  children: ReactNode;
}) {
  const [user, anonAccessEnabled] = useUnit([$currentUser, $anonAccessEnabled]);
  const location = useLocation();
  if (canAccess(user, permission, anonAccessEnabled)) return children;
  if (isAnonymous(user) && anonymousTo !== undefined) return <Navigate to={anonymousTo} replace />;
  if (isAnonymous(user)) {
    const state: ReturnState = { from: location.pathname + location.search };
    return <Navigate to={LOGIN_PATH} replace state={state} />;
  }
  return <NotAuthorized home={homePathFor(user, anonAccessEnabled)} />;
}

/** Tells the user "You are not authorized to view this page" and sends them home. */
export function NotAuthorized({ home }: { home: string }) {
  const notify = useUnit(notificationShown);
  useEffect(() => {
    notify({ kind: 'error', text: NOT_AUTHORIZED_MESSAGE });
  }, [notify]);
  return <Navigate to={home} replace />;
}
