/** The tree browser's server messages; the console adds its own (spec 02 §4, §8). */
export const TREE_MESSAGES = {
  // Spec 02 §8: the not-found suffix the console shows after a missing segment.
  notFound: (repoKey: string, path: string) => `${repoKey}/${path} could not be found.`,
  notReadable: (repoKey: string, path: string) =>
    `You do not have permission to read ${path ? `${repoKey}/${path}` : repoKey}`,
  notAFolder: (repoKey: string, path: string) =>
    `${repoKey}/${path} is a file: only repositories and folders have children`,
};
