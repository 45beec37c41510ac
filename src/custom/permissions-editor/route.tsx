import { lazy, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { PERMISSION_LABELS } from './messages';

const PermissionsListPage = lazy(() => import('./PermissionsListPage'));
const PermissionEditorPage = lazy(() => import('./PermissionEditorPage'));

const loaded = (page: ReactNode) => <Suspense fallback={<FullPageLoading />}>{page}</Suspense>;

/**
 * Spec 01 §2: management/permissions (list, edit/{permissionName}), under `admin`: for admins
 * and for the managers of a target (spec 01 §6), who see and edit only what they manage.
 */
export const permissionsRoutes: RouteObject[] = [
  {
    path: 'management/permissions',
    element: loaded(<PermissionsListPage />),
    handle: { title: PERMISSION_LABELS.title },
  },
  {
    path: 'management/permissions/edit/:permissionName',
    element: loaded(<PermissionEditorPage />),
    handle: { title: PERMISSION_LABELS.title },
  },
];

/** management/permissions/create: admins only, as creating a target names its resources. */
export const permissionCreateRoute: RouteObject = {
  path: 'management/permissions/create',
  element: loaded(<PermissionEditorPage key="create" />),
  handle: { title: PERMISSION_LABELS.newTitle },
};
