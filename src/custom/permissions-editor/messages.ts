import type { DisplayMode, OtherSection, PrincipalKind, Resource } from './editor';

/** Where the screens live (spec 01 §2: management/permissions, create, edit/{name}). */
export const PERMISSIONS_PATH = '/admin/management/permissions';
export const newPermissionPath = () => `${PERMISSIONS_PATH}/create`;
export const editPermissionPath = (name: string) =>
  `${PERMISSIONS_PATH}/edit/${encodeURIComponent(name)}`;

/** Spec 01 §5, verbatim. */
export const PERMISSION_MESSAGES = {
  nameEmpty: 'Name can not be empty',
  nameExists: 'Permission target name already exists',
  /** A new target's name holding / \ : | ? < > * or a quote (server/modules/access-control/target-name.ts). */
  illegalCharacters: 'Name contains illegal characters',
};

/** The list's page size (spec 01 §8: permission list page size 50). */
export const PERMISSIONS_PAGE_SIZE = 50;

export const PERMISSION_LABELS = {
  title: 'Permissions',
  menuGroup: 'User Management',
  newPermission: 'New Permission',
  newTitle: 'New Permission',
  editTitle: (name: string) => `Edit Permission ${name}`,
  search: 'Search permissions',
  name: 'Name',
  repositories: 'Repositories',
  groups: 'Groups',
  users: 'Users',
  actions: 'Actions',
  delete: 'Delete',
  deleteRow: (name: string) => `Delete ${name}`,
  deleteTitle: 'Delete Permission',
  deleteText: (name: string) => `Are you sure you want to delete the permission '${name}'?`,
  cancel: 'Cancel',
  create: 'Create',
  save: 'Save',
  loading: 'Loading…',
  empty: 'No permissions yet.',
  resources: 'Resources',
  principals: 'Users and Groups',
  resourceSave: (title: string) => `Save ${title}`,
  resourceDiscard: (title: string) => `Discard ${title}`,
  stagedHint: (titles: string) => `Save or discard the changes of ${titles} first.`,
  anyLocal: 'Any Local Repository',
  anyRemote: 'Any Remote Repository',
  chooseRepositories: 'Repositories by name',
  displayMode: 'Patterns',
  names: 'Names (one per line)',
  includePatterns: 'Include Patterns (one per line)',
  excludePatterns: 'Exclude Patterns (one per line)',
  available: (kind: PrincipalKind) => `Available ${kind === 'users' ? 'Users' : 'Groups'}`,
  selected: (kind: PrincipalKind) => `Selected ${kind === 'users' ? 'Users' : 'Groups'}`,
  dropHint: 'Drag here, or use Add',
  add: (name: string) => `Add ${name}`,
  remove: (name: string) => `Remove ${name}`,
  adminNote: 'admin: may do everything already',
  ownRowNote: 'yours: only an admin can change it',
  managerNote:
    'As a manager of this permission target you can change what users and groups may do; only an admin can change its resources.',
  noResource: 'Save a resource with data first.',
  confirmTitle: 'Entities Without Permissions',
  confirmText: (names: string[]) =>
    `${names.join(', ')} ${names.length === 1 ? 'has' : 'have'} no permissions and will not be saved. Save anyway?`,
  saveAnyway: 'Save Anyway',
  readOnlySection: (title: string) =>
    `Depot has no service behind ${title}: what was granted over the REST API is shown here and kept as it is.`,
  covers: 'Covers',
  everything: 'everything',
  noGrants: 'No user or group is granted anything here.',
};

export const RESOURCE_TITLES: Record<Resource, string> = {
  repo: 'Repositories',
  build: 'Builds',
  releaseBundle: 'Release Bundles',
};

/** Spec 01 §3's table names of the sections whose service Depot lacks. */
export const OTHER_SECTION_TITLES: Record<OtherSection, string> = {
  destination: 'Destinations',
  pipelineSource: 'Pipeline Sources',
  xraySource: 'Xray Sources',
};

export const MODE_LABELS: Record<DisplayMode, string> = {
  any: 'Any',
  pattern: 'By Pattern',
  name: 'By Name',
};

export const PRINCIPAL_TABS: Record<PrincipalKind, string> = { users: 'Users', groups: 'Groups' };

/** Spec 01 §3's table: the actions' labels per resource. */
export const ACTION_LABELS: Record<Resource | OtherSection, Record<string, string>> = {
  repo: {
    read: 'Read',
    annotate: 'Annotate',
    write: 'Deploy/Cache',
    delete: 'Delete/Overwrite',
    managedXrayMeta: 'Manage Xray Metadata',
    manage: 'Manage',
  },
  build: {
    read: 'Read',
    annotate: 'Annotate',
    write: 'Deploy',
    delete: 'Delete',
    managedXrayMeta: 'Manage Xray Metadata',
    manage: 'Manage',
  },
  releaseBundle: {
    read: 'Read',
    annotate: 'Annotate',
    write: 'Create',
    distribute: 'Distribute',
    delete: 'Delete',
    managedXrayMeta: 'Manage Xray Metadata',
    manage: 'Manage',
  },
  destination: { distribute: 'Distribute', delete: 'Delete', manage: 'Manage' },
  pipelineSource: { read: 'Read', trigger: 'Trigger', manage: 'Manage' },
  xraySource: { read: 'Read', managedXrayMeta: 'Manage Xray Metadata' },
};
