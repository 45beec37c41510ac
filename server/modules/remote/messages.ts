/** What remote repositories answer when they cannot serve a path; used by the server and tests. */
export const REMOTE_MESSAGES = {
  globalOffline: (repoKey: string, path: string) =>
    `Global offline mode is enabled: remote repository '${repoKey}' does not contact its upstream, and '${path}' is not in its cache.`,
  repositoryOffline: (repoKey: string, path: string) =>
    `Remote repository '${repoKey}' is offline: '${path}' is not in its cache.`,
  assumedOffline: (repoKey: string, path: string, until: Date) =>
    `Remote repository '${repoKey}' is assumed offline after a connection error until ${until.toISOString()}: '${path}' is not in its cache.`,
  upstreamStatus: (repoKey: string, status: number, upstreamPath: string) =>
    `Remote repository '${repoKey}': the upstream answered ${status} for ${upstreamPath}`,
  rateLimited: (repoKey: string, upstreamPath: string) =>
    `Remote repository '${repoKey}': the upstream refused ${upstreamPath} with 429 Too Many Requests; try again later`,
  brokeOff: (repoKey: string, detail: string) =>
    `Remote repository '${repoKey}': the download from the upstream broke off (${detail})`,
  checksumMismatch: (repoKey: string, path: string, detail: string) =>
    `Remote repository '${repoKey}': the upstream's checksum header does not match the content of '${path}'; nothing was cached (${detail})`,
  undecryptablePassword: (repoKey: string, why: string) =>
    `Remote repository '${repoKey}': its stored upstream password cannot be decrypted (${why}); check the master key or set the password again`,
} as const;
