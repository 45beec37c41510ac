/** Search messages: the spec's words where it has them (02 §5, §8), ours otherwise. */
export const SEARCH_MESSAGES = {
  invalidChecksumLength: 'Invalid Checksum Length',
  checksumNotHex: 'A checksum has hexadecimal digits only (0-9, a-f)',
  termRequired: 'Enter a term to search for',
  wildcardOnly: 'A search term needs more than wildcards (* and ?)',
  packageTermTooShort: 'Enter at least 3 characters besides wildcards (* and ?)',
  propertyRequired: 'Enter at least one property key',
  gavcRequired: 'Enter at least one of Group ID, Artifact ID, Version and Classifier',
  unknownRepository: (key: string) => `Repository '${key}' does not exist`,
  unsupportedRepoType: 'Unsupported repo type',
  aqlBody: 'An AQL query is required as the request body (text/plain)',
  dateRequired: (name: string) => `'${name}' must be a time in milliseconds since 1970`,
  unknownPackageType: (type: string) => `Package search does not support '${type}'`,
  deleted: (count: number) =>
    count === 1 ? 'Successfully deleted 1 artifact' : `Successfully deleted ${count} artifacts`,
  aqlBuildRelationsHere:
    'build relations (artifact.module.build.*, dependency.module.build.*) work in the search API, not in retention policies or the archive search',
  versionNotFound: 'Unable to find artifact versions',
} as const;
