import type { IndexOutcome } from './calculate-index.ts';

/**
 * What the console's artifact actions answer in `info`. Copy, move and restore answer with
 * the copy-and-move service's own messages (the same as the scripted calls); the spec quotes
 * none of these, so they are Depot's wording.
 */
export const ACTION_MESSAGES = {
  deletedToTrash: (where: string) => `'${where}' was moved to the Trash Can`,
  deletedForGood: (where: string) => `'${where}' was deleted permanently`,
  restored: (where: string) => `Successfully restored trash items to ${where}`,
  trashEmptied: 'The trash can was emptied',
  zapped: (where: string, files: number) =>
    `Zapped the cache of '${where}': ${files} cached ${files === 1 ? 'file' : 'files'} will be checked upstream on their next request`,
  notZappable: (repoKey: string, kind: string) => `'${repoKey}' is not a ${kind} repository`,
  noIndex: (repoKey: string) =>
    `'${repoKey}' has no index to calculate: only local Maven, Gradle, Ivy, SBT, npm and PyPI repositories keep one`,
  indexCalculated: (
    repoKey: string,
    { files, indexed, refusedCount, refused }: IndexOutcome,
  ): string => {
    const done = `Calculated the index of '${repoKey}': ${files} ${files === 1 ? 'file' : 'files'} read, ${indexed} indexed`;
    if (refusedCount === 0) return done;
    const first = refused[0]!;
    return `${done}, ${refusedCount} refused by their format (first: '${first.path}': ${first.reason})`;
  },
  notVersioned: (repoKey: string) =>
    `'${repoKey}' keeps no versions to delete: only local Maven, Gradle and SBT repositories do`,
  noSuchVersion: (groupId: string, version: string) =>
    `Version ${version} of ${groupId} could not be found here.`,
  mayNotDelete: (where: string) => `You may not delete '${where}'; no version was deleted`,
  versionsDeleted: (versions: number, folders: number) =>
    `Deleted ${versions} ${versions === 1 ? 'version' : 'versions'} (${folders} ${folders === 1 ? 'folder' : 'folders'})`,
  notInTrash: (repoKey: string) =>
    `Only items in the Trash Can can be restored; '${repoKey}' is not the Trash Can`,
} as const;
