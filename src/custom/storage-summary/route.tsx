import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { STORAGE_SUMMARY_LABELS } from './messages';

/** The page, its chart and its grid load only when an admin opens it. */
const StorageSummaryPage = lazy(() => import('./StorageSummaryPage'));

/** The admin route (spec 03 §2: /admin/monitoring/storage-summary), relative to `admin`. */
export const storageSummaryRoute: RouteObject = {
  path: 'monitoring/storage-summary',
  element: (
    <Suspense fallback={<FullPageLoading />}>
      <StorageSummaryPage />
    </Suspense>
  ),
  handle: { title: STORAGE_SUMMARY_LABELS.title },
};
