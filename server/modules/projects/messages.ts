/** Project messages; quoted ones are spec 03 §5 and §8 verbatim. */
export const PROJECT_MESSAGES = {
  keyStart: 'Project key must start with a lowercase character',
  keyChars: 'A project key has 3 to 10 lowercase letters and digits, starting with a letter',
  nameRequired: 'You must fill in this field',
  tooLong: 'The value is too long',
  limitReached:
    'You have reached the permitted limit of the number of projects that can be created',
  exists: (key: string) => `A project with the key '${key}' already exists`,
  nameExists: (name: string) => `A project named '${name}' already exists`,
  notFound: (key: string) => `Project '${key}' could not be found.`,
  hasRepositories: (key: string) =>
    `Project '${key}' still has repositories. Unassign them before deleting the project.`,
  roleNotFound: (role: string) => `Role '${role}' does not exist in this project`,
  roleExists: (role: string) => `Role '${role}' already exists`,
  predefinedRole: (role: string) => `Role '${role}' is predefined and cannot be changed`,
  unknownAction: (action: string) => `Unknown role action '${action}'`,
  unknownMember: (kind: string, name: string) =>
    `${kind === 'user' ? 'User' : 'Group'} '${name}' does not exist`,
  notManager: 'You are not authorized to manage this project',
  repoPrefix: (key: string) =>
    `Repositories of project '${key}' must have keys starting with '${key}-'`,
  assigned: (repo: string, key: string) => `Successfully assigned repo(s) to project ${key}`,
  unassigned: (repo: string, key: string) =>
    `Successfully unassigned the ${repo} repository from project ${key}`,
  alreadyAssigned: (repo: string, key: string) =>
    `Repository '${repo}' already belongs to project '${key}'`,
  quotaExceeded: (key: string) => `The storage quota of project '${key}' is used up`,
} as const;
