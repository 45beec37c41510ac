/** Paths a refusal names before it says how many more there are. */
const LISTED = 10;

/** What the trash can answers; the spec quotes none of these, so they are Depot's wording. */
export const TRASH_MESSAGES = {
  /** A restore never replaces what is there now (docs/security.md, "Nothing acknowledged is lost"). */
  wouldOverwrite: (paths: string[]) => {
    const listed = paths.slice(0, LISTED).join(', ');
    const more = paths.length > LISTED ? ` and ${paths.length - LISTED} more` : '';
    return `Nothing was restored: newer content is at ${listed}${more}. Move or delete it first (a delete keeps it in the trash can), or restore to another path`;
  },
} as const;
