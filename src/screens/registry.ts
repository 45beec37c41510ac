import { lazy } from 'react';
import { createScreenRegistry, type ScreenComponent } from '../engine/registry';

/**
 * The bespoke screens, by the name their descriptor's `component` gives
 * (schemas/screens/*.screen.json). Each loads with its screen only.
 */
const SCREEN_COMPONENTS: Record<string, ScreenComponent> = {
  'access-tokens': lazy(() => import('../custom/access-tokens/AccessTokensPage')),
  'backup-status': lazy(() => import('../custom/backup-status/BackupStatusPanel')),
  'archive-search': lazy(() => import('../custom/retention/ArchiveSearchPage')),
  builds: lazy(() => import('../custom/builds/BuildsPage')),
  'config-descriptor': lazy(() => import('../custom/config-descriptor/ConfigDescriptorPage')),
  'cold-storage-monitoring': lazy(() => import('../custom/retention/ColdStorageMonitoringPage')),
  'invite-user': lazy(() => import('../custom/invite-user/InviteUserPage')),
  'mail-config': lazy(() => import('../custom/mail-config/MailConfigPage')),
  'license-buckets': lazy(() => import('../custom/license-buckets/LicenseBucketsPage')),
  'native-browser': lazy(() => import('../custom/native-browser/NativeBrowserPage')),
  maintenance: lazy(() => import('../custom/maintenance/MaintenancePage')),
  'npm-login': lazy(() => import('../custom/npm-login/NpmLoginPage')),
  onboarding: lazy(() => import('../custom/onboarding/OnboardingPage')),
  packages: lazy(() => import('../custom/packages/PackagesPage')),
  permissions: lazy(() => import('../custom/permissions-editor/PermissionsScreen')),
  projects: lazy(() => import('../custom/projects/ProjectsScreen')),
  'project-overview': lazy(() => import('../custom/projects/ProjectOverviewPage')),
  'project-members': lazy(() => import('../custom/projects/ProjectMembersPage')),
  'project-roles': lazy(() => import('../custom/projects/ProjectRolesPage')),
  'project-storage': lazy(() => import('../custom/projects/ProjectStoragePage')),
  'quick-setup': lazy(() => import('../custom/quick-setup/QuickSetupPage')),
  repositories: lazy(() => import('../custom/repositories/RepositoriesScreen')),
  search: lazy(() => import('../custom/search/SearchResultsPage')),
  'security-config': lazy(() => import('../custom/security-config/SecurityConfigPage')),
  'security-descriptor': lazy(() => import('../custom/config-descriptor/SecurityDescriptorPage')),
  'service-status': lazy(() => import('../custom/service-status/ServiceStatusPage')),
  'support-zone': lazy(() => import('../custom/support-zone/SupportZonePage')),
  'system-logs': lazy(() => import('../custom/system-logs/SystemLogsPage')),
  'storage-summary': lazy(() => import('../custom/storage-summary/StorageSummaryPage')),
  topology: lazy(() => import('../custom/topology/TopologyPage')),
  'tree-browser': lazy(() => import('../custom/tree-browser/TreeBrowserPage')),
  'user-profile': lazy(() => import('../custom/user-profile/UserProfilePage')),
  'webhook-deliveries': lazy(() => import('../custom/webhook-deliveries/WebhookDeliveriesPanel')),
};

/** The names a descriptor's `component` may use; `schemas:check` reads them from here. */
export const SCREEN_COMPONENT_NAMES = Object.keys(SCREEN_COMPONENTS).sort();

export const screenRegistry = createScreenRegistry(SCREEN_COMPONENTS);
