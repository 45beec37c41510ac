import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { SECURITY_CONFIG_PATH, SECURITY_LABELS } from './messages';

const SecurityConfigPage = lazy(() => import('./SecurityConfigPage'));

/** The admin route artifactory/security/general, relative to `admin`. */
export const securityConfigRoute: RouteObject = {
  path: SECURITY_CONFIG_PATH.replace('/admin/', ''),
  element: (
    <Suspense fallback={<FullPageLoading />}>
      <SecurityConfigPage />
    </Suspense>
  ),
  handle: { title: SECURITY_LABELS.title },
};
