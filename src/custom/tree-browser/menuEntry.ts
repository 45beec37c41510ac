import type { ScreenSummary } from '../../api/descriptor';
import { TREE_LABELS, TREE_PATH } from './messages';

/** The sidebar's Application > Artifactory > Artifacts item: whoever may read. */
export const treeBrowserMenuEntry: ScreenSummary = {
  id: 'tree-browser',
  title: TREE_LABELS.title,
  route: TREE_PATH,
  permission: 'anonymous',
  menu: {
    section: 'Application',
    group: TREE_LABELS.menuGroup,
    label: TREE_LABELS.title,
    order: 100,
  },
};
