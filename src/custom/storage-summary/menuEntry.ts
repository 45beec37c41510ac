import type { ScreenSummary } from '../../api/descriptor';
import { STORAGE_SUMMARY_LABELS, STORAGE_SUMMARY_PATH } from './messages';

/** The sidebar's Administration > Monitoring > Storage Summary item, for admins only. */
export const storageSummaryMenuEntry: ScreenSummary = {
  id: 'storage-summary',
  title: STORAGE_SUMMARY_LABELS.title,
  route: STORAGE_SUMMARY_PATH,
  permission: 'admin',
  menu: {
    section: 'Administration',
    group: STORAGE_SUMMARY_LABELS.menuGroup,
    label: STORAGE_SUMMARY_LABELS.title,
    // Monitoring comes after the management groups, as in the admin menu of the spec.
    order: 900,
  },
};
