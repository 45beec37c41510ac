import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { MAINTENANCE_LABELS } from './messages';

const MaintenancePage = lazy(() => import('./MaintenancePage'));

/** The admin route (spec 03 §2: artifactory/advanced/maintenance), relative to `admin`. */
export const maintenanceRoute: RouteObject = {
  path: 'artifactory/advanced/maintenance',
  element: (
    <Suspense fallback={<FullPageLoading />}>
      <MaintenancePage />
    </Suspense>
  ),
  handle: { title: MAINTENANCE_LABELS.title },
};
