import type { ScreenSummary } from '../../api/descriptor';
import { REPO_LABELS, listPath } from './messages';

/** The sidebar's Administration > Repositories > Repositories item, for admins only. */
export const repositoriesMenuEntry: ScreenSummary = {
  id: 'repositories',
  title: REPO_LABELS.title,
  route: listPath('local'),
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: REPO_LABELS.menuGroup,
    label: REPO_LABELS.title,
    order: 5,
  },
};
