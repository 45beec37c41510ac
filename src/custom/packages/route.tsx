import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { RequireAccess } from '../../shell/guards/RequireAccess';
import { PACKAGE_LABELS } from './messages';

const PackagesPage = lazy(() => import('./PackagesPage'));

const page = (
  <RequireAccess permission="anonymous">
    <Suspense fallback={<FullPageLoading />}>
      <PackagesPage />
    </Suspense>
  </RequireAccess>
);

/** The package browser (spec 01 §2): /packages/{packageId?}/{versionId?}. */
export const packagesRoutes: RouteObject[] = [
  { path: 'packages', element: page, handle: { title: PACKAGE_LABELS.title } },
  { path: 'packages/:packageId', element: page, handle: { title: PACKAGE_LABELS.title } },
  {
    path: 'packages/:packageId/:versionId',
    element: page,
    handle: { title: PACKAGE_LABELS.title },
  },
];
