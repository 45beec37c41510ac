import { matchPath } from 'react-router-dom';
import type { ScreenDescriptor, ScreenSummary } from '../api/descriptor';
import type { Row } from '../api/resource';
import { fillTemplate } from './template';

/** The three pages of a CRUD screen: list at `route`, `route/new`, `route/{key}/edit`. */
export type ScreenView = { screen: ScreenSummary } & (
  { view: 'list' } | { view: 'new' } | { view: 'edit'; key: string }
);

export const newPath = (route: string) => `${route}/new`;
export const editPath = (route: string, key: string) => `${route}/${encodeURIComponent(key)}/edit`;
export const editPathOf = (descriptor: Pick<ScreenDescriptor, 'route' | 'key'>, row: Row) =>
  editPath(descriptor.route, String(row[descriptor.key]));

/** Which screen page a path shows, if any. */
export function resolveScreenView(
  pathname: string,
  screens: ScreenSummary[],
): ScreenView | undefined {
  for (const screen of screens) {
    if (matchPath({ path: screen.route, end: true }, pathname)) return { screen, view: 'list' };
    if (matchPath({ path: newPath(screen.route), end: true }, pathname))
      return { screen, view: 'new' };
    const edit = matchPath({ path: `${screen.route}/:key/edit`, end: true }, pathname);
    if (edit?.params.key !== undefined) return { screen, view: 'edit', key: edit.params.key };
  }
  return undefined;
}

/** The page title of a screen view: the descriptor's form titles once it is loaded. */
export function screenViewTitle(view: ScreenView, descriptor?: ScreenDescriptor): string {
  if (view.view === 'list' || !descriptor) return view.screen.title;
  if (view.view === 'new') return descriptor.form.newTitle ?? view.screen.title;
  return fillTemplate(descriptor.form.editTitle ?? view.screen.title, {
    [descriptor.key]: view.key,
  });
}
