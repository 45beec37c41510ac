import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { ACCESS_TOKENS_PATH, TOKEN_LABELS } from './messages';

const AccessTokensPage = lazy(() => import('./AccessTokensPage'));

/** The admin route configuration/access_tokens, relative to `admin`. */
export const accessTokensRoute: RouteObject = {
  path: ACCESS_TOKENS_PATH.replace('/admin/', ''),
  element: (
    <Suspense fallback={<FullPageLoading />}>
      <AccessTokensPage />
    </Suspense>
  ),
  handle: { title: TOKEN_LABELS.title },
};
