import { isSingleDocument, type ScreenDescriptor } from './registry.ts';

/**
 * The console pages of a screen, as src/engine/screenPaths.ts routes them: a bespoke screen's
 * route and its `pages`, a settings document's one page, or a list with `new`, its edit page
 * and its `pages`.
 */
export function pagesOf(screen: ScreenDescriptor): string[] {
  if (screen.component !== undefined)
    return [screen.route, ...(screen.pages ?? []).map((page) => page.path)];
  if (isSingleDocument(screen)) return [screen.route];
  const edit = screen.editRoute?.replace('{key}', ':key') ?? `${screen.route}/:key/edit`;
  const more = (screen.pages ?? []).map((page) => page.path);
  return [screen.route, `${screen.route}/new`, edit, ...more];
}

const segments = (route: string) => route.split('/').filter(Boolean);
const isParameter = (segment: string) => segment.startsWith(':');

/**
 * Whether some path matches both route patterns: segment by segment, equal or either a
 * parameter; `*` matches whatever is left.
 */
export function routesOverlap(a: string, b: string): boolean {
  const left = segments(a);
  const right = segments(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === '*' || y === '*') return true;
    if (x === undefined || y === undefined) return false;
    if (x !== y && !isParameter(x) && !isParameter(y)) return false;
  }
  return true;
}

/**
 * How specific a route pattern is, scored as React Router ranks the console's routes
 * (its computeScore): more segments, static ones above parameters, a `*` last.
 */
function rankOf(route: string): number {
  const all = route.split('/');
  const splat = all.includes('*');
  return all
    .filter((segment) => segment !== '*')
    .reduce(
      (score, segment) => score + (isParameter(segment) ? 3 : segment === '' ? 1 : 10),
      all.length + (splat ? -2 : 0),
    );
}

/**
 * Whether two console routes collide: some path matches both and neither ranks above the
 * other, so which page shows depends on the order routes happen to be listed in. A more
 * specific route beside a general one (`/admin/repositories/layouts` beside
 * `/admin/repositories/:repoType`) is how the console means it and is no collision.
 */
export const routesCollide = (a: string, b: string) =>
  routesOverlap(a, b) && rankOf(a) === rankOf(b);
