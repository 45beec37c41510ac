import { toQueryString, type SearchParams } from './query';

/** Recent searches kept per user (spec 02 §3 Recent search, §4 Running a search). */
export interface RecentSearch {
  id: string;
  type: SearchParams['searchType'];
  queryString: string;
  searchModel: SearchParams;
}

export const RECENT_SEARCHES_CAP = 10;
const storageKey = (user: string | undefined) => `depot.search.recent.${user || 'anonymous'}`;

/** The user's recent searches; a value that cannot be read is treated as none. */
export function loadRecentSearches(user: string | undefined): RecentSearch[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(storageKey(user)) ?? '[]');
    return Array.isArray(stored)
      ? (stored as RecentSearch[]).filter((entry) => entry?.queryString)
      : [];
  } catch {
    return [];
  }
}

/** Most recent first, a repeat of the same query and type removed, capped. */
export function withRecentSearch(
  list: readonly RecentSearch[],
  search: SearchParams,
): RecentSearch[] {
  const queryString = toQueryString(search);
  const entry = { id: `${Date.now()}`, type: search.searchType, queryString, searchModel: search };
  const others = list.filter(
    (item) => !(item.queryString === queryString && item.type === search.searchType),
  );
  return [entry, ...others].slice(0, RECENT_SEARCHES_CAP);
}

export function saveRecentSearches(user: string | undefined, list: readonly RecentSearch[]) {
  try {
    localStorage.setItem(storageKey(user), JSON.stringify(list));
  } catch {
    // Storage full or refused: recent searches are a convenience, the search still runs.
  }
}

/** How a recent search reads in the list: its type and its main term. */
export function describeSearch(entry: RecentSearch): string {
  const model = entry.searchModel;
  const gavc = [model.groupID, model.artifactID, model.version, model.classifier].filter(Boolean);
  const term =
    model.name ?? model.checksum ?? model.properties ?? (gavc.join(':') || entry.queryString);
  return `${entry.type}: ${term}`;
}
