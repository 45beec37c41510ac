import { isSingleDocument, type ScreenDescriptor } from './registry.ts';

/** The console pages of a screen: its list, `new` and `:key/edit`, or its one page. */
export function pagesOf(screen: ScreenDescriptor): string[] {
  if (isSingleDocument(screen) || screen.component !== undefined) return [screen.route];
  return [screen.route, `${screen.route}/new`, `${screen.route}/:key/edit`];
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
