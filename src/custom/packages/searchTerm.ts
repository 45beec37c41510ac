import type { PackageSearch } from './api';

/** Spec 02 §5: a package search term has at least 3 characters once * and ? are removed. */
export const MIN_TERM_CHARACTERS = 3;

/**
 * Whether a search may be sent: its name has at least 3 characters besides wildcards, or it
 * has none, or another filter narrows it (spec 02 §5's "unless bypassed by another
 * condition": a type, scope, tag or date already says what to look for).
 */
export function termLongEnough(search: PackageSearch): boolean {
  const name = search.name?.trim() ?? '';
  if (name === '' || name.replace(/[*?]/g, '').length >= MIN_TERM_CHARACTERS) return true;
  return Boolean(
    search.packageType ||
    search.scope ||
    search.tags?.length ||
    search.createdAfter ||
    search.createdBefore,
  );
}
