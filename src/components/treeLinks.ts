/**
 * The tree's route (spec 01 §2, 02 §2): /repos/{browser}/{tab?}/{artifact*}. The artifact
 * part is `repoKey/path`, each segment URL-encoded. A route is a contract between pages, so
 * it lives here: the tree browser reads and writes it, other pages (a build's artifacts)
 * link into it, and neither feature imports the other.
 */
export const TREE_ROUTE_BASE = '/repos';

export interface TreeLocation {
  browser: string;
  tab: string;
  /** `repoKey/path`, '' when none was given. */
  path: string;
}

export function treeHref({ browser, tab, path }: TreeLocation): string {
  const artifact = path
    .split('/')
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${TREE_ROUTE_BASE}/${browser}/${encodeURIComponent(tab)}${artifact ? `/${artifact}` : ''}`;
}
