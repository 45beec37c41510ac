/** Set Me Up's texts; the unlock messages are spec 03 §8 verbatim. */
export const SET_ME_UP_MESSAGES = {
  wrongPassword: 'The password is incorrect, try again',
  // Edit Profile has Generate API Key too; the button beside this message makes one here.
  noApiKey: 'Please create an API key (Edit Profile -> Generate API key)',
  /** When the server's answer says nothing (spec 03 §8: "otherwise ... 'An error occurred'"). */
  failed: 'An error occurred',
  noMatchingRepos: 'There is no repository you may use with this tool.',
  noDeployPermission: 'You do not have deploy permission on this repository.',
  noAccess:
    'No Access Privileges. You do not have permissions defined for any repository. Please contact your system administrator.',
};

export const SET_ME_UP_LABELS = {
  title: 'Set Me Up',
  open: 'Set Me Up',
  close: 'Close',
  tool: 'Package type',
  repository: 'Repository',
  general: 'General',
  read: 'Resolve',
  deploy: 'Deploy',
  password: 'Type your password to insert your credentials',
  insert: 'Insert credentials',
  inserted: 'Your credentials are in the snippets below.',
  createApiKey: 'Create API key',
  copy: 'Copy',
  copied: 'Copied',
  dockerMethod: 'Docker access method',
};

/** The Docker access methods, as the reverse proxy settings name them. */
export const DOCKER_METHOD_LABELS = {
  repoPathPrefix: 'Repository Path',
  subDomain: 'Sub Domain',
  portPerRepo: 'Port',
} as const;

/** The tools Set Me Up explains, and the package types of the repositories each works with. */
export const TOOLS = [
  { id: 'npm', label: 'npm', types: ['npm'] },
  { id: 'pypi', label: 'PyPI', types: ['pypi'] },
  { id: 'maven', label: 'Maven', types: ['maven', 'gradle', 'ivy', 'sbt'] },
  { id: 'gradle', label: 'Gradle', types: ['maven', 'gradle', 'ivy', 'sbt'] },
  { id: 'ivy', label: 'Ivy', types: ['maven', 'gradle', 'ivy', 'sbt'] },
  { id: 'sbt', label: 'SBT', types: ['maven', 'gradle', 'ivy', 'sbt'] },
  { id: 'docker', label: 'Docker', types: ['docker'] },
  { id: 'generic', label: 'Generic', types: [] as string[] },
] as const;

export type ToolId = (typeof TOOLS)[number]['id'];
