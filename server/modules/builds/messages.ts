/** What the build calls answer, in one place for the server and its tests (docs/builds.md). */
export const BUILD_MESSAGES = {
  notAnObject: 'The build-info must be a JSON object',
  required: (field: string) => `${field} is required`,
  wrongType: (field: string, type: string) =>
    `${field} must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`,
  badChecksum: (field: string) => `${field} is not a valid checksum`,
  badCharacters: (field: string) =>
    `${field} may not contain any of these characters: / \\ : | ? * " < >`,
  badName:
    'name may not contain any of these characters: \\ : | ? * " < >, and its / separate parts that are neither empty, . nor ..',
  tooLong: (field: string, limit: number) => `${field} is longer than ${limit} characters`,
  invalid: (field: string) => `${field} is not valid`,
  tooMany: (field: string, limit: number) =>
    `${field} lists more than ${limit.toLocaleString('en-US')} entries (the limit of one build)`,
  badStarted: (started: string) =>
    `started must be a time such as 2026-01-31T12:00:00.000+0000, not '${started}'`,
  tooLarge: (limitMb: number) => `The build-info document is larger than ${limitMb} MB`,
  /** A file deployed to a build-info repository that is no JSON document (docs/builds.md). */
  notBuildInfo: 'A build-info repository holds build-info JSON documents only',
  noBuild: (name: string) => `No build was found for build name: ${name}`,
  noBuildNumber: (name: string, number: string) =>
    `No build was found for build name: ${name}, build number: ${number}`,
  unknownProject: (key: string) => `Project '${key}' does not exist`,
  deleteWhat: 'Give buildNumbers, or deleteAll=1',
  renameTo: 'Give the new name: ?to=',
  renameExists: (name: string) => `A build named '${name}' exists already`,
  promoteStatus: 'status is required',
  noTargetRepo: (key: string) => `Target repository '${key}' does not exist or is not local`,
  promoteNothing: 'The build has no artifacts or dependencies stored here to promote',
  patternBody: 'Give a list of {buildName, buildNumber, artifactPattern}',
  forbidden: 'You are not authorized to perform this action on builds',
  unreadableContent:
    'The build lists content stored where you may not read it: nothing was promoted',
  artifactsNotDeletable: 'You may not delete every artifact of these builds: nothing was deleted',
} as const;
