import { DEFAULT_BROWSER, DEFAULT_TAB, TREE_ROUTE_BASE } from './messages';

/**
 * The tree's route (spec 01 §2, 02 §2): /repos/{browser}/{tab?}/{artifact*}. The artifact
 * part is `repoKey/path`, each segment URL-encoded.
 */
export interface TreeLocation {
  browser: string;
  tab: string;
  /** `repoKey/path`, '' when none was given. */
  path: string;
}

/** Reads the part after /repos/{browser}/ (react-router's splat, already decoded). */
export function parseTreeSplat(
  browser: string | undefined,
  splat: string | undefined,
): TreeLocation {
  const [tab = '', ...artifact] = (splat ?? '').split('/');
  return {
    browser: browser || DEFAULT_BROWSER,
    tab: tab || DEFAULT_TAB,
    path: artifact.filter(Boolean).join('/'),
  };
}

export function treeHref({ browser, tab, path }: TreeLocation): string {
  const artifact = path
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${TREE_ROUTE_BASE}/${browser}/${encodeURIComponent(tab)}${artifact ? `/${artifact}` : ''}`;
}

/**
 * How the route follows the active node and tab (spec 02 §2): skipped when unchanged,
 * replaced when the route had no path yet, pushed otherwise (so Back returns to it).
 */
export function routeUpdate(
  current: TreeLocation,
  next: TreeLocation,
): 'skip' | 'replace' | 'push' {
  if (current.tab === next.tab && current.path === next.path) return 'skip';
  return current.path === '' ? 'replace' : 'push';
}
