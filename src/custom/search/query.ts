import { SEARCH_TYPES, type SearchType } from './messages';

/**
 * A search as the results page's query string holds it (spec 02 §3: packageTypes becomes
 * `pkg`, repositories `repo`, the other filters keep their names). Pushing these parameters
 * to the route runs the search, so a search is a link that can be shared or reloaded.
 */
export interface SearchParams {
  searchType: SearchType;
  name?: string;
  checksum?: string;
  /** `key=v1,v2;other=v` */
  properties?: string;
  path?: string;
  excludeInnerClasses?: boolean;
  searchClassOnly?: boolean;
  groupID?: string;
  artifactID?: string;
  version?: string;
  classifier?: string;
  /** The package search's package type (spec 02 §3 `pkg`) and its per-type fields. */
  pkg?: string;
  artifact?: string;
  scope?: string;
  repo?: string[];
}

const TEXT_KEYS = [
  'name',
  'checksum',
  'properties',
  'path',
  'groupID',
  'artifactID',
  'version',
  'classifier',
  'pkg',
  'artifact',
  'scope',
] as const;
const FLAG_KEYS = ['excludeInnerClasses', 'searchClassOnly'] as const;
const TYPES: readonly SearchType[] = SEARCH_TYPES.map((type) => type.id);

export function toQueryString(params: SearchParams): string {
  const query = new URLSearchParams({ searchType: params.searchType });
  for (const key of TEXT_KEYS) if (params[key]) query.set(key, params[key]!);
  for (const key of FLAG_KEYS) if (params[key]) query.set(key, 'true');
  if (params.repo?.length) query.set('repo', params.repo.join(','));
  return query.toString();
}

/** The search a query string asks for; the default type is quick (spec 02 §4). */
export function fromQueryString(search: string): SearchParams {
  const query = new URLSearchParams(search);
  const type = query.get('searchType') as SearchType | null;
  const params: SearchParams = { searchType: type && TYPES.includes(type) ? type : 'quick' };
  for (const key of TEXT_KEYS) {
    const value = query.get(key)?.trim();
    if (value) params[key] = value;
  }
  for (const key of FLAG_KEYS) if (query.get(key) === 'true') params[key] = true;
  const repo = query
    .get('repo')
    ?.split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (repo?.length) params.repo = repo;
  return params;
}

/** Keys the toolbar's `key:value` syntax knows (spec 02 §5); others are part of the name. */
const KNOWN_KEYS: Record<string, keyof SearchParams> = {
  repo: 'repo',
  checksum: 'checksum',
  pkg: 'pkg',
  version: 'version',
  path: 'path',
};

/**
 * The toolbar's query text (spec 02 §5): terms split by spaces, quotes group, `key:value`
 * only for known keys; everything else is the name.
 */
export function parseSearchText(text: string): Omit<SearchParams, 'searchType'> {
  const terms = [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
  const names: string[] = [];
  const params: Omit<SearchParams, 'searchType'> = {};
  for (const term of terms) {
    const colon = term.indexOf(':');
    const key = colon > 0 ? KNOWN_KEYS[term.slice(0, colon)] : undefined;
    const value = colon > 0 ? term.slice(colon + 1) : '';
    if (key === 'repo') params.repo = [...(params.repo ?? []), ...value.split(',').filter(Boolean)];
    else if (key && value) Object.assign(params, { [key]: value });
    else if (term) names.push(term);
  }
  if (names.length > 0) params.name = names.join(' ');
  return params;
}

/** Spec 02 §5: 40 hex digits are a SHA-1, 32 an MD5, 64 a SHA-256. */
export const isChecksumLength = (checksum: string) => [32, 40, 64].includes(checksum.trim().length);

/**
 * Spec 02 §4: the Archive type falls back to Quick when archive indexing is off. Depot indexes
 * each item as it archives it, for administrators only (the archive holds every repository's
 * items): for anyone else the archive's index is off (docs/retention.md).
 */
export function withArchiveFallback(params: SearchParams, archiveIndexed: boolean): SearchParams {
  return params.searchType === 'archive' && !archiveIndexed
    ? { ...params, searchType: 'quick' }
    : params;
}
