/** What the npm endpoints answer when they refuse; npm prints the text after the status. */
export const NPM_MESSAGES = {
  notNpm: (key: string) => `Repository '${key}' is not an npm repository`,
  notFound: (name: string) => `Package '${name}' could not be found`,
  versionNotFound: (name: string, version: string) =>
    `Version '${version}' of package '${name}' could not be found`,
  nameMismatch: (inUrl: string, inDocument: unknown) =>
    `The package name in the URL ('${inUrl}') and in the document ('${String(inDocument)}') disagree`,
  oneVersion: 'A publish carries exactly one version and its tarball',
  invalidVersion: (version: string) => `Invalid version: "${version}"`,
  republish: (version: string) =>
    `You cannot publish over the previously published versions: ${version}.`,
  tarballMismatch: (document: string, tarball: string) =>
    `The tarball's package.json is ${tarball}, but the document publishes ${document}`,
  attachmentMissing: (file: string) => `The document has no tarball attachment '${file}'`,
  lengthMismatch: 'The tarball is not as long as the document says (length)',
  checksumMismatch: (field: string) =>
    `The tarball does not match the checksum the document gives (dist.${field})`,
  tagNeedsVersion: 'A dist-tag is set with a version string as its body',
  tagUnknownVersion: (tag: string, version: string) =>
    `The dist-tag '${tag}' cannot point at version '${version}': no such version`,
  latestStays: "The 'latest' dist-tag cannot be removed",
  invalidTag: (tag: string) => `Invalid dist-tag '${tag}': a tag may not be a version range`,
  pathMismatch: (path: string, found: string) =>
    `The tarball at '${path}' holds ${found}, which belongs at another path`,
  authNeedsCredential:
    'Ask with the credential npm is to use (basic auth, an API key or an access token): a console session has none to give',
  invalidScope: (scope: string) => `Invalid npm scope '${scope}'`,
  unpublishInMember: (name: string, version: string, member: string, rclass: string) =>
    rclass === 'remote'
      ? `Version ${version} of '${name}' comes from the remote repository '${member}' (a cache of its upstream) and cannot be unpublished through this virtual repository; unpublish it where it was published`
      : `Version ${version} of '${name}' lives in the repository '${member}', not in this virtual repository's deployment repository; unpublish it through '${member}'`,
  tokenNeedsPassword:
    'npm token create sends your password: Depot checks it before it makes a token',
  tokenReadOnly:
    "Depot's tokens are not read-only: create one for a user or group whose permissions only read",
  tokenCidr: "Depot's tokens are not bound to addresses: create one without --cidr",
  tokenExpires: 'expires is a whole number of days',
  notAToken: 'The token to revoke is not an access token',
  starsNeedUser: 'Stars belong to signed-in users: name one (npm stars <user>)',
  othersAccess: "Only an administrator may list another user's packages",
  accessManagedInDepot:
    "Access to packages is managed with Depot's permission targets (Administration > User Management > Permissions), not with npm access, npm team or npm owner add/rm",
  loginNeedsPassword: 'npm login sends a name and a password',
  noAdvisories: (key: string) =>
    `Repository '${key}' has no upstream that answered for security advisories: npm audit asks a remote npm repository's upstream, or a virtual repository's remote members`,
} as const;
