import type { Environment } from './environments.ts';

/** What a role may do: JFrog Access's action names (docs/projects.md). */
export const ROLE_ACTIONS = [
  'READ_REPOSITORY',
  'ANNOTATE_REPOSITORY',
  'DEPLOY_CACHE_REPOSITORY',
  'DELETE_OVERWRITE_REPOSITORY',
  'MANAGE_MEMBERS',
  'MANAGE_RESOURCES',
] as const;
export type RoleAction = (typeof ROLE_ACTIONS)[number];

/** The permission-target action each repository role action grants. */
export const ROLE_TO_TARGET_ACTION: Partial<Record<RoleAction, string>> = {
  READ_REPOSITORY: 'read',
  ANNOTATE_REPOSITORY: 'annotate',
  DEPLOY_CACHE_REPOSITORY: 'write',
  DELETE_OVERWRITE_REPOSITORY: 'delete',
};

export interface ProjectRole {
  name: string;
  description: string;
  type: 'PREDEFINED' | 'CUSTOM';
  environments: string[];
  actions: RoleAction[];
}

// JFrog's predefined roles: developers and contributors work in DEV, and only read PROD
// through Viewer-like roles; admins and viewers span both.
const EVERYWHERE: Environment[] = ['DEV', 'PROD'];
const DEV_ONLY: Environment[] = ['DEV'];
const READ: RoleAction[] = ['READ_REPOSITORY'];
const CONTRIBUTE: RoleAction[] = [...READ, 'ANNOTATE_REPOSITORY', 'DEPLOY_CACHE_REPOSITORY'];
const DEVELOP: RoleAction[] = [...CONTRIBUTE, 'DELETE_OVERWRITE_REPOSITORY'];

export const PROJECT_ADMIN_ROLE = 'Project Admin';
/** Spec 03 §3: the default role is Viewer. */
export const DEFAULT_ROLE = 'Viewer';

/** Every project has these; they cannot be edited or deleted. */
export const PREDEFINED_ROLES: ProjectRole[] = [
  {
    name: PROJECT_ADMIN_ROLE,
    description: "Manages the project's members and resources, and may do everything in it",
    type: 'PREDEFINED',
    environments: EVERYWHERE,
    actions: [...DEVELOP, 'MANAGE_MEMBERS', 'MANAGE_RESOURCES'],
  },
  {
    name: 'Developer',
    description: 'Reads, deploys, annotates and deletes in the project repositories',
    type: 'PREDEFINED',
    environments: DEV_ONLY,
    actions: DEVELOP,
  },
  {
    name: 'Contributor',
    description: 'Reads, deploys and annotates in the project repositories',
    type: 'PREDEFINED',
    environments: DEV_ONLY,
    actions: CONTRIBUTE,
  },
  {
    name: DEFAULT_ROLE,
    description: 'Reads the project repositories',
    type: 'PREDEFINED',
    environments: EVERYWHERE,
    actions: READ,
  },
];
