import type { ScreenSummary } from '../../api/descriptor';
import { SECURITY_CONFIG_PATH, SECURITY_LABELS } from './messages';

/** The sidebar's Administration > Security > General item, for admins only. */
export const securityConfigMenuEntry: ScreenSummary = {
  id: 'security-config',
  title: SECURITY_LABELS.title,
  route: SECURITY_CONFIG_PATH,
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: SECURITY_LABELS.menuGroup,
    label: SECURITY_LABELS.menuLabel,
    order: 100,
  },
};
