import type { ScreenSummary } from '../../api/descriptor';
import { MAINTENANCE_LABELS, MAINTENANCE_PATH } from './messages';

/** The sidebar's Administration > Advanced > Maintenance item, for admins only. */
export const maintenanceMenuEntry: ScreenSummary = {
  id: 'maintenance',
  title: MAINTENANCE_LABELS.title,
  route: MAINTENANCE_PATH,
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: MAINTENANCE_LABELS.menuGroup,
    label: MAINTENANCE_LABELS.title,
    order: 800,
  },
};
