import type { ScreenSummary } from '../../api/descriptor';
import { ACCESS_TOKENS_PATH, TOKEN_LABELS } from './messages';

/** The sidebar's Administration > Configuration > Access Tokens item, for admins only. */
export const accessTokensMenuEntry: ScreenSummary = {
  id: 'access-tokens',
  title: TOKEN_LABELS.title,
  route: ACCESS_TOKENS_PATH,
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: TOKEN_LABELS.menuGroup,
    label: TOKEN_LABELS.title,
    order: 210,
  },
};
