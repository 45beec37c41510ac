import type { UIMatch } from 'react-router-dom';
import type { LoadedDescriptor, ScreenSummary } from '../../api/descriptor';

export interface TitleContext {
  pathname: string;
  screens: ScreenSummary[];
  descriptors: Record<string, LoadedDescriptor>;
}

/** A route's `handle.title`: fixed, or computed for routes whose pages come from descriptors. */
export type RouteTitle = string | ((context: TitleContext) => string | undefined);
export interface RouteHandle {
  title?: RouteTitle;
}

/** The title of the deepest matched route that has one. */
export function deepestTitle(matches: UIMatch[], context: TitleContext): string | undefined {
  for (const match of [...matches].reverse()) {
    const title = (match.handle as RouteHandle | undefined)?.title;
    const text = typeof title === 'function' ? title(context) : title;
    if (text) return text;
  }
  return undefined;
}

/** "Users - depot-1": the page title, then the server name from the footer. */
export function composeDocumentTitle(
  title: string | undefined,
  serverName: string | undefined,
  product: string,
): string {
  return [title, serverName || (title ? undefined : product)].filter(Boolean).join(' - ');
}
