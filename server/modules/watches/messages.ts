/** What the Watch tab's calls answer; the spec quotes none of these, so they are Depot's. */
export const WATCH_MESSAGES = {
  watching: (where: string) => `You are now watching '${where}'`,
  stopped: (where: string) => `Stopped watching '${where}'`,
  anonymous: 'Anonymous users cannot watch artifacts',
  othersWatch: "Only administrators can remove another user's watch",
  trash: 'The Trash Can and its items cannot be watched',
} as const;
