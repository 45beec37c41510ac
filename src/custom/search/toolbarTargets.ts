import { ARCHIVE_SEARCH_PATH } from '../retention/messages';
import { archiveQueryOf } from '../retention/range';
import { BUILDS_PATH } from '../builds/messages';
import { PACKAGES_PATH } from '../packages/messages';
import { SEARCH_RESULTS_PATH } from './messages';
import { parseSearchText, toQueryString, type SearchParams } from './query';
import type { SearchScope } from './scopes';

export interface ToolbarSearchTarget {
  /** The page and query the search opens. */
  to: string;
  /** An artifact search's parameters, which the results page runs. */
  artifactSearch?: SearchParams;
}

/**
 * Where the toolbar's search goes for a scope and a text (spec 01 §2 scopes): artifacts run a
 * quick search (a checksum-length hex term a checksum search) on the results page; packages
 * and builds open their list's search; Archive (administrators: the archive holds every
 * repository's items) opens the archive search with the text as AQL, or as a name with
 * wildcards. Nothing for an empty text, or for a scope Depot does not serve.
 */
export function toolbarSearchTarget(
  scope: SearchScope,
  text: string,
  admin: boolean,
): ToolbarSearchTarget | undefined {
  if (scope === 'archive' && admin && text.trim())
    return { to: `${ARCHIVE_SEARCH_PATH}?${new URLSearchParams({ aql: archiveQueryOf(text) })}` };
  const parsed = parseSearchText(text);
  if (!parsed.name && !parsed.checksum) return undefined;
  if (scope === 'builds')
    return { to: `${BUILDS_PATH}?${new URLSearchParams({ name: parsed.name ?? text.trim() })}` };
  if (scope === 'packages')
    return { to: `${PACKAGES_PATH}?${new URLSearchParams({ name: parsed.name ?? '' })}` };
  if (scope !== 'artifacts') return undefined;
  const searchType = parsed.checksum ? 'checksum' : 'quick';
  const params: SearchParams = { ...parsed, searchType };
  return { to: `${SEARCH_RESULTS_PATH}?${toQueryString(params)}`, artifactSearch: params };
}
