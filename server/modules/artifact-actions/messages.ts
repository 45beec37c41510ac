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
  notInTrash: (repoKey: string) =>
    `Only items in the Trash Can can be restored; '${repoKey}' is not the Trash Can`,
} as const;
