/** What the General tab's calls answer when they cannot; the spec quotes none, so these are Depot's. */
export const GENERAL_MESSAGES = {
  noDeclaration: (path: string, tool: string) =>
    `No dependency declaration for ${path}: it is not a ${tool} artifact path`,
  countOfFile: (repoKey: string, path: string) =>
    `${repoKey}/${path} is a file: artifacts are counted below folders and repositories`,
  notAFile: (repoKey: string, path: string) =>
    `${repoKey}/${path} is not a file: checksums are fixed file by file`,
  contentDamaged: (where: string) =>
    `The stored content of ${where} no longer matches its checksums: it was damaged or changed on disk. Deploy the file again.`,
  checksumsFixed: (where: string) =>
    `Checksums of ${where} fixed: SHA-256, SHA-1 and MD5 were computed again from its content and match.`,
} as const;
