/** What the General tab's calls answer when they cannot; the spec quotes none, so these are Depot's. */
export const GENERAL_MESSAGES = {
  noDeclaration: (path: string, tool: string) =>
    `No dependency declaration for ${path}: it is not a ${tool} artifact path`,
  countOfFile: (repoKey: string, path: string) =>
    `${repoKey}/${path} is a file: artifacts are counted below folders and repositories`,
} as const;
