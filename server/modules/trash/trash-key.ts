/** Spec 02 §9: the automatic trash can's repository key. */
export const TRASH_REPO_KEY = 'auto-trashcan';

/** Whether a repository key names the trash can (keys compare without case). */
export const isTrashKey = (key: string) => key.toLowerCase() === TRASH_REPO_KEY;
