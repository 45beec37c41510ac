import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { RequireAccess } from '../../shell/guards/RequireAccess';
import { PROFILE_LABELS, PROFILE_PATH } from './messages';

const UserProfilePage = lazy(() => import('./UserProfilePage'));

/**
 * The profile sits under /admin by the spec's route, yet every signed-in user has one: it is
 * matched before the admin area's guard, with its own (any signed-in user).
 */
export const userProfileRoute: RouteObject = {
  path: PROFILE_PATH.slice(1),
  element: (
    // Spec 01 §2: non-anonymous users only, otherwise to /.
    <RequireAccess permission="user" anonymousTo="/">
      <Suspense fallback={<FullPageLoading />}>
        <UserProfilePage />
      </Suspense>
    </RequireAccess>
  ),
  handle: { title: PROFILE_LABELS.title },
};
