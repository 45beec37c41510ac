import type { ScreenSummary } from '../../api/descriptor';
import { PROJECT_LABELS as L, PROJECT_PATHS } from './messages';

/** The sidebar's Administration > Projects item, for admins only. */
export const projectsMenuEntry: ScreenSummary = {
  id: 'projects',
  title: L.title,
  route: PROJECT_PATHS.list,
  permission: 'admin',
  menu: { section: 'Administration', group: L.menuGroup, label: L.title, order: 3 },
};

/** Spec 01 §2: the Project Settings menu, shown instead of Administration in a project. */
export const PROJECT_SETTINGS_ITEMS = [
  { label: L.overview, route: PROJECT_PATHS.overview },
  { label: L.members, route: PROJECT_PATHS.members },
  { label: L.roles, route: PROJECT_PATHS.roles },
  { label: L.repositories, route: '/admin/repositories/local' },
  { label: L.storage, route: PROJECT_PATHS.storage },
];
