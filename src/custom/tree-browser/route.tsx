import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { RequireAccess } from '../../shell/guards/RequireAccess';
import { TREE_LABELS } from './messages';

const TreeBrowserPage = lazy(() => import('./TreeBrowserPage'));

const page = (
  <RequireAccess permission="anonymous">
    <Suspense fallback={<FullPageLoading />}>
      <TreeBrowserPage />
    </Suspense>
  </RequireAccess>
);

/**
 * The artifact browser (spec 01 §2, 02 §2): /repos/{browser}/{tab?}/{artifact*}; /repos and
 * /repos/{browser} go to the General tab.
 */
export const treeBrowserRoutes: RouteObject[] = [
  { path: 'repos', element: page, handle: { title: TREE_LABELS.title } },
  { path: 'repos/:browser/*', element: page, handle: { title: TREE_LABELS.title } },
];
