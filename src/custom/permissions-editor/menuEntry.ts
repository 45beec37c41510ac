import type { ScreenSummary } from '../../api/descriptor';
import { PERMISSION_LABELS, PERMISSIONS_PATH } from './messages';

/**
 * The sidebar's Administration > User Management > Permissions item: for admins, and for
 * users who manage a permission target (spec 01 §6).
 */
export const permissionsMenuEntry: ScreenSummary = {
  id: 'permissions',
  title: PERMISSION_LABELS.title,
  route: PERMISSIONS_PATH,
  permission: 'manager',
  menu: {
    section: 'Administration',
    group: PERMISSION_LABELS.menuGroup,
    label: PERMISSION_LABELS.title,
    order: 30,
  },
};
