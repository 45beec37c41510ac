/** The projects pages' words; quoted ones are spec 03 §3 and §8 verbatim. */
export const PROJECTS_PATH = '/admin/projects';
export const PROJECT_PATHS = {
  list: PROJECTS_PATH,
  create: `${PROJECTS_PATH}/create`,
  overview: `${PROJECTS_PATH}/overview`,
  members: `${PROJECTS_PATH}/members`,
  roles: `${PROJECTS_PATH}/roles`,
  storage: `${PROJECTS_PATH}/storage`,
} as const;

export const PROJECT_LABELS = {
  menuGroup: 'Projects',
  title: 'Projects',
  projectSettings: 'Project Settings',
  selector: 'Project',
  all: 'All',
  empty: 'Get Started with your first Project!',
  createProject: 'Create Project',
  create: 'Create',
  save: 'Save',
  cancel: 'Cancel',
  delete: 'Delete',
  remove: 'Remove',
  name: 'Project Name',
  key: 'Project Key',
  description: 'Description',
  quota: 'Storage Quota (GB)',
  quotaColumn: 'Storage Quota',
  quotaHelp: 'Leave empty for no quota',
  manageMembers: 'Allow project admins to manage members',
  manageResources: 'Allow project admins to manage resources (repositories)',
  overview: 'Overview',
  members: 'Members',
  roles: 'Roles',
  storage: 'Storage',
  repositories: 'Repositories',
  users: 'Users',
  groups: 'Groups',
  member: 'Name',
  memberRoles: 'Roles',
  addMember: 'Add Member',
  memberKind: 'Member type',
  noMembers: 'No members yet. Add users or groups and give them roles.',
  role: 'Role',
  roleName: 'Role Name',
  roleType: 'Type',
  actions: 'Actions',
  environments: 'Environments',
  addRole: 'Add Role',
  used: 'Used',
  ofQuota: (used: string, quota: string) => `${used} of ${quota}`,
  noQuota: 'No quota',
  unlimited: '∞',
  files: 'Files',
  noRepositories: 'This project has no repositories yet.',
  selectProject: 'Select a project in the project selector to see its settings.',
  deleteProject: 'Delete Project',
  confirmDelete: (name: string) => `Are you sure you want to delete the project '${name}'?`,
  confirmRemoveMember: (name: string) => `Remove ${name} from the project?`,
  confirmRemoveRole: (name: string) => `Delete the role '${name}'?`,
  created: (name: string) => `Project '${name}' was created successfully`,
  updated: (name: string) => `Project '${name}' was updated successfully`,
  deleted: (name: string) => `Project '${name}' was deleted`,
  memberSaved: (name: string) => `${name} was saved`,
  memberRemoved: (name: string) => `${name} was removed from the project`,
  roleCreated: (name: string) => `Role '${name}' was created`,
  roleRemoved: (name: string) => `Role '${name}' was deleted`,
  createFailed: 'Failed to create a project',
  limitReached: (limit: number) =>
    `You cannot create a new project. The number of projects that can be created reached the limit (${limit}). To create a new project, contact your Administrator.`,
  required: 'You must fill in this field',
  keyStart: 'Project key must start with a lowercase character',
  keyChars: 'A project key has 3 to 10 lowercase letters and digits, starting with a letter',
  tooLong: 'The value is too long',
  rolesRequired: 'Choose at least one role',
} as const;

/** Role actions as the roles page names them. */
export const ROLE_ACTION_LABELS: Record<string, string> = {
  READ_REPOSITORY: 'Read repositories',
  ANNOTATE_REPOSITORY: 'Annotate repositories',
  DEPLOY_CACHE_REPOSITORY: 'Deploy / cache',
  DELETE_OVERWRITE_REPOSITORY: 'Delete / overwrite',
  MANAGE_MEMBERS: 'Manage members',
  MANAGE_RESOURCES: 'Manage resources',
};

/** Spec 03 §5: 3-10 lowercase letters and digits, starting with a letter; names up to 32. */
export function projectKeyError(key: string): string | null {
  if (key === '') return PROJECT_LABELS.required;
  if (!/^[a-z]/.test(key)) return PROJECT_LABELS.keyStart;
  if (!/^[a-z][a-z0-9]{2,9}$/.test(key)) return PROJECT_LABELS.keyChars;
  return null;
}

export function projectNameError(name: string): string | null {
  if (!name.trim()) return PROJECT_LABELS.required;
  if (name.length > 32) return PROJECT_LABELS.tooLong;
  return null;
}

/** A key suggested from a name: its letters and digits, lowercased, starting with a letter. */
export function suggestedKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/^[0-9]+/, '')
    .slice(0, 10);
}
