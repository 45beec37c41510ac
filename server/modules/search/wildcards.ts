/**
 * Search terms use `*` for any characters and `?` for one (spec 02 §9: the wildcard is the
 * asterisk). SQL's LIKE uses `%` and `_`, so those, and the escape character itself, are
 * escaped first: a user's `%` is a percent sign, never a wildcard.
 */
export function likePattern(term: string): string {
  return term
    .replace(/[\\%_]/g, '\\$&')
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
}

/** Whether a term is nothing but wildcards (and spaces): it would match everything. */
export const isWildcardOnly = (term: string) => term.replace(/[*?\s]/g, '') === '';

export const hasWildcard = (term: string) => /[*?]/.test(term);

/** Spec 02 §5: name filters get a trailing `*` when they have none. */
export const withTrailingWildcard = (term: string) => (term.endsWith('*') ? term : `${term}*`);

/** A wildcard term as a regular expression over a whole string. */
export function compileWildcard(term: string): RegExp {
  const source = term
    .split('')
    .map((char) =>
      char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}
