import type { ScreenSummary } from '../../api/descriptor';
import { PACKAGE_LABELS, PACKAGES_PATH } from './messages';

/** The sidebar's Application > Artifactory > Packages item: whoever may read. */
export const packagesMenuEntry: ScreenSummary = {
  id: 'packages',
  title: PACKAGE_LABELS.title,
  route: PACKAGES_PATH,
  permission: 'anonymous',
  menu: {
    section: 'Application',
    group: PACKAGE_LABELS.menuGroup,
    label: PACKAGE_LABELS.title,
    order: 90,
  },
};
