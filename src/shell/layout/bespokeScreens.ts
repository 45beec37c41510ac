import type { ScreenSummary } from '../../api/descriptor';
import { storageSummaryMenuEntry } from '../../custom/storage-summary/menuEntry';
import { repositoriesMenuEntry } from '../../custom/repositories/menuEntry';
import { maintenanceMenuEntry } from '../../custom/maintenance/menuEntry';
import { treeBrowserMenuEntry } from '../../custom/tree-browser/menuEntry';
import { permissionsMenuEntry } from '../../custom/permissions-editor/menuEntry';
import { securityConfigMenuEntry } from '../../custom/security-config/menuEntry';
import { mailConfigMenuEntry } from '../../custom/mail-config/menuEntry';
import { inviteUserMenuEntry } from '../../custom/invite-user/menuEntry';
import { accessTokensMenuEntry } from '../../custom/access-tokens/menuEntry';
import { projectsMenuEntry } from '../../custom/projects/menuEntry';
import { packagesMenuEntry } from '../../custom/packages/menuEntry';

/**
 * Bespoke pages that have a route of their own in routes.tsx rather than a descriptor: the
 * sidebar lists them beside the descriptor screens, by the same rules.
 */
export const BESPOKE_SCREENS: ScreenSummary[] = [
  storageSummaryMenuEntry,
  repositoriesMenuEntry,
  maintenanceMenuEntry,
  packagesMenuEntry,
  treeBrowserMenuEntry,
  permissionsMenuEntry,
  securityConfigMenuEntry,
  mailConfigMenuEntry,
  inviteUserMenuEntry,
  accessTokensMenuEntry,
  projectsMenuEntry,
];
