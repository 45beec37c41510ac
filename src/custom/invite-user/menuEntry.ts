import type { ScreenSummary } from '../../api/descriptor';
import { INVITE_LABELS, INVITE_USER_PATH } from './messages';

/** The sidebar's Administration > User Management > Invite User item, for admins only. */
export const inviteUserMenuEntry: ScreenSummary = {
  id: 'invite-user',
  title: INVITE_LABELS.title,
  route: INVITE_USER_PATH,
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: INVITE_LABELS.menuGroup,
    label: INVITE_LABELS.title,
    order: 15,
  },
};
