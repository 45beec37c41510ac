/** Permission target messages; the quoted ones are spec 01 §5 verbatim. */
export const ACCESS_MESSAGES = {
  nameEmpty: 'Name can not be empty',
  nameExists: 'Permission target name already exists',
  notFound: (name: string) => `Permission target '${name}' could not be found.`,
  nameDiffers: (body: string, path: string) =>
    `The name in the body ('${body}') differs from the path ('${path}')`,
  deletedMany: (count: number) => `${count} permission target(s) deleted`,
  created: (name: string) => `Permission target '${name}' was created successfully`,
  updated: (name: string) => `Permission target '${name}' was updated successfully`,
  removed: (name: string) => `Permission Target '${name}' has been removed successfully.`,
  unknownRepository: (key: string) => `Repository '${key}' could not be found.`,
  virtualRepository: (key: string) =>
    `Permission targets do not apply to virtual repositories ('${key}'): name its members`,
  unknownUser: (name: string) => `User '${name}' could not be found.`,
  unknownGroup: (name: string) => `Group '${name}' could not be found.`,
  adminPrincipal: (name: string) => `Admin users and groups cannot be added ('${name}')`,
  notManaged: (name: string) => `You do not manage the permission target '${name}'`,
  notAManager: 'Only administrators and managers of a permission target can do this',
  managerResources: (name: string) =>
    `Only an administrator can add or remove the resources of permission target '${name}'`,
  managerOwnRows: (name: string) =>
    `You cannot change your own permissions in permission target '${name}', nor those of a group you belong to`,
  unknownAction: (action: string) => `Unknown permission action '${action}'`,
  leadingSlash: (pattern: string) => `A pattern cannot start with a slash ('${pattern}')`,
  unknownCountry: (code: string) =>
    `'${code}' is not a country code of the list (two letters, as ISO 3166-1 has them), nor *`,
  /** What a hidden refusal says: the words of any missing artifact. */
  hidden: (repoKey: string, path: string) =>
    `Could not find resource '${path ? `${repoKey}/${path}` : repoKey}'.`,
  denied: (user: string, action: string, repoKey: string, path: string) =>
    `User '${user}' is not permitted to ${action} '${path ? `${repoKey}/${path}` : repoKey}'.`,
  /**
   * The refusal of an operation on many items because of one the caller may not read: it
   * names what the request named, never the hidden item.
   */
  deniedBelow: (user: string, action: string, repoKey: string, path: string) =>
    `User '${user}' is not permitted to ${action} everything in '${path ? `${repoKey}/${path}` : repoKey}'; nothing was changed.`,
} as const;
