import { DEFAULT_BROWSER, DEFAULT_TAB } from './messages';
import type { TreeLocation } from '../../components/treeLinks';

export { treeHref, type TreeLocation } from '../../components/treeLinks';

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
