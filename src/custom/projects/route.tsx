import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { PROJECT_LABELS as L, PROJECT_PATHS } from './messages';

const page = (Component: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<FullPageLoading />}>
    <Component />
  </Suspense>
);
const relative = (path: string) => path.replace('/admin/', '');

/** Administration > Projects, list and create: admins only (relative to `admin`). */
export const projectAdminRoutes: RouteObject[] = [
  {
    path: relative(PROJECT_PATHS.list),
    element: page(lazy(() => import('./ProjectsListPage'))),
    handle: { title: L.title },
  },
  {
    path: relative(PROJECT_PATHS.create),
    element: page(lazy(() => import('./ProjectCreatePage'))),
    handle: { title: L.createProject },
  },
];

/** Project Settings pages: admins and the selected project's admins (relative to `admin`). */
export const projectSettingsRoutes: RouteObject[] = [
  { path: PROJECT_PATHS.overview, title: L.overview, load: () => import('./ProjectOverviewPage') },
  { path: PROJECT_PATHS.members, title: L.members, load: () => import('./ProjectMembersPage') },
  { path: PROJECT_PATHS.roles, title: L.roles, load: () => import('./ProjectRolesPage') },
  { path: PROJECT_PATHS.storage, title: L.storage, load: () => import('./ProjectStoragePage') },
].map(({ path, title, load }) => ({
  path: relative(path),
  element: page(lazy(load)),
  handle: { title },
}));
