import type { ScreenSummary } from '../../api/descriptor';
import { MAIL_CONFIG_PATH, MAIL_LABELS } from './messages';

/** The sidebar's Administration > Configuration > Mail item, for admins only. */
export const mailConfigMenuEntry: ScreenSummary = {
  id: 'mail-config',
  title: MAIL_LABELS.title,
  route: MAIL_CONFIG_PATH,
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: MAIL_LABELS.menuGroup,
    label: MAIL_LABELS.title,
    order: 200,
  },
};
