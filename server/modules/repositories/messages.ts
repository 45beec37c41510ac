/**
 * Repository messages; the quoted ones are spec 03 §5 verbatim. The key rules' messages
 * (docker lowercase, "-cache", reserved) are the schema's (schemas/entities/repository.schema.json,
 * `$defs`), which the server answers with; they are named here for the tests that expect them.
 */
export const REPO_MESSAGES = {
  passwordForNewUrl:
    'Enter the password again: the stored one goes only to the upstream it was saved for',
  unknownProject: (key: string) => `Project '${key}' could not be found.`,
  projectPrefix: (key: string) =>
    `Repositories of project '${key}' must have keys starting with '${key}-'`,
  dockerLowercase: 'Docker repository key must be in lowercase',
  localCacheSuffix: 'Cannot create local repository with "-cache" ending',
  unsupportedType: 'Unsupported repo type',
  deleteConfirm: (key: string) =>
    `Are you sure you want to delete the ${key} repository? All artifacts will be permanently deleted.`,
  notFound: (key: string) => `Repository '${key}' could not be found.`,
  exists: (key: string) => `Repository '${key}' already exists`,
  existAll: (keys: string[]) =>
    keys.length === 1
      ? `Repository '${keys[0]}' already exists`
      : `Repositories ${keys.map((key) => `'${key}'`).join(', ')} already exist`,
  reservedKey: (key: string) => `'${key}' is a reserved name and cannot be a repository key`,
  urlRequired: 'A remote repository needs the URL of its upstream',
  urlScheme: (scheme: string) =>
    scheme
      ? `The URL of a remote repository must start with http:// or https://, not ${scheme}:`
      : 'The URL of a remote repository must start with http:// or https://',
  unknownMember: (key: string) => `Repository '${key}' does not exist`,
  selfMember: 'A virtual repository cannot include itself',
  badDeploymentRepo: (key: string) =>
    `The default deployment repository '${key}' must be a local repository included in this virtual repository`,
  unknownPackageType: (type: string) => `Unknown package type '${type}'`,
  kindNotAllowed: (type: string, kind: string) => `A ${type} repository cannot be ${kind}`,
  unknownLayout: (name: string) => `Layout '${name}' could not be found.`,
  keyChange: 'A repository key cannot be changed',
  kindChange: 'The type of a repository (local, remote, virtual) cannot be changed',
  removed: (key: string) =>
    `Repository '${key}' and all its content have been removed successfully.`,
} as const;

/** Answers of the console's repository calls (spec 03 §7 Repositories). */
export const REPO_UI_MESSAGES = {
  created: (key: string) => `Successfully created repository '${key}'`,
  updated: (key: string) => `Repository '${key}' update successful.`,
} as const;

/** Messages of the repository layouts calls. */
export const LAYOUT_MESSAGES = {
  notFound: (name: string) => `Layout '${name}' could not be found.`,
  exists: (name: string) => `Layout '${name}' already exists`,
  builtIn: (name: string) => `The built-in layout '${name}' cannot be changed or deleted`,
  inUse: (name: string, repoKeys: string[]) =>
    `Layout '${name}' cannot be deleted: it is used by the repositories ${repoKeys.join(', ')}`,
  tokens: 'The pattern must contain the tokens [org] or [orgPath], [module] and [baseRev]',
  descriptorRequired: 'You must fill in this field',
  badRegExp: 'The value is not a valid regular expression',
  deleted: (count: number) => `${count} layout(s) deleted`,
  rename: 'A layout name cannot be changed',
} as const;
