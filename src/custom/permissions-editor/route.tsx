import { lazy, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { PERMISSION_LABELS } from './messages';

const PermissionsListPage = lazy(() => import('./PermissionsListPage'));
const PermissionEditorPage = lazy(() => import('./PermissionEditorPage'));

const loaded = (page: ReactNode) => <Suspense fallback={<FullPageLoading />}>{page}</Suspense>;

/** Spec 01 §2: management/permissions (list, create, edit/{permissionName}), under `admin`. */
export const permissionsRoutes: RouteObject[] = [
  {
    path: 'management/permissions',
    element: loaded(<PermissionsListPage />),
    handle: { title: PERMISSION_LABELS.title },
  },
  {
    path: 'management/permissions/create',
    element: loaded(<PermissionEditorPage key="create" />),
    handle: { title: PERMISSION_LABELS.newTitle },
  },
  {
    path: 'management/permissions/edit/:permissionName',
    element: loaded(<PermissionEditorPage />),
    handle: { title: PERMISSION_LABELS.title },
  },
];
