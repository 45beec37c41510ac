import { lazy } from 'react';
import type { ScreenComponentProps } from '../../engine/registry';

const PermissionsListPage = lazy(() => import('./PermissionsListPage'));
const PermissionEditorPage = lazy(() => import('./PermissionEditorPage'));

/** Spec 01 §2 management/permissions: the list, and the editor at create and edit/{name}. */
export default function PermissionsScreen({ view }: ScreenComponentProps) {
  return view === 'list' ? <PermissionsListPage /> : <PermissionEditorPage />;
}
