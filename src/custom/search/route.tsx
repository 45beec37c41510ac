import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { RequireAccess } from '../../shell/guards/RequireAccess';
import { SEARCH_LABELS } from './messages';

const SearchResultsPage = lazy(() => import('./SearchResultsPage'));

/** The artifact search results (spec 01 §2 route artifactSearchResults). */
export const searchRoutes: RouteObject[] = [
  {
    path: 'artifactSearchResults',
    element: (
      <RequireAccess permission="anonymous">
        <Suspense fallback={<FullPageLoading />}>
          <SearchResultsPage />
        </Suspense>
      </RequireAccess>
    ),
    handle: { title: SEARCH_LABELS.title },
  },
];
