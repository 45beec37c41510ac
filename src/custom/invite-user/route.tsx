import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { INVITE_LABELS, INVITE_USER_PATH } from './messages';

const InviteUserPage = lazy(() => import('./InviteUserPage'));

/** The admin route management/invite_user, relative to `admin`. */
export const inviteUserRoute: RouteObject = {
  path: INVITE_USER_PATH.replace('/admin/', ''),
  element: (
    <Suspense fallback={<FullPageLoading />}>
      <InviteUserPage />
    </Suspense>
  ),
  handle: { title: INVITE_LABELS.title },
};
