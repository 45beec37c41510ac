import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { RequireAccess } from '../../shell/guards/RequireAccess';
import { NPM_LOGIN_LABELS, NPM_LOGIN_PATH } from './messages';

const NpmLoginPage = lazy(() => import('./NpmLoginPage'));

/** npm's web login page: any signed-in user; a visitor signs in first and comes back here. */
export const npmLoginRoute: RouteObject = {
  path: `${NPM_LOGIN_PATH.slice(1)}/:loginId`,
  element: (
    <RequireAccess permission="user">
      <Suspense fallback={<FullPageLoading />}>
        <NpmLoginPage />
      </Suspense>
    </RequireAccess>
  ),
  handle: { title: NPM_LOGIN_LABELS.title },
};
