import { matchRoutes } from 'react-router-dom';
import {
  isSettingsDescriptor,
  isSettingsScreen,
  type LoadedDescriptor,
  type Permission,
  type ScreenDescriptor,
  type ScreenSummary,
  type ScreenViewName,
} from '../api/descriptor';
import type { Row } from '../api/resource';
import { fillTemplate } from './template';

/** One path the console answers for a screen, with the page it shows and who may see it. */
export interface ScreenRoute {
  path: string;
  screen: ScreenSummary;
  view: ScreenViewName;
  permission: Permission;
  /** The page's own title; otherwise the screen's (or, for a form, the descriptor's). */
  title?: string;
}

/** The page a path shows: its route, and the entity key of an engine edit page. */
export type ScreenView = { screen: ScreenSummary; route: ScreenRoute } & (
  { view: 'list' } | { view: 'new' } | { view: 'edit'; key?: string }
);

/** The engine's edit pages name the edited entity with this route parameter. */
const KEY_PARAM = 'key';
const KEY_PLACEHOLDER = '{key}';

type EditRouted = Pick<ScreenSummary, 'route' | 'editRoute'>;

/** A list screen's edit page with `{key}` where the key goes: the descriptor's, or `route/{key}/edit`. */
const editTemplate = (screen: EditRouted) =>
  screen.editRoute ?? `${screen.route}/${KEY_PLACEHOLDER}/edit`;

export const newPath = (route: string) => `${route}/new`;
export const editPath = (screen: EditRouted, key: string) =>
  editTemplate(screen).replace(KEY_PLACEHOLDER, encodeURIComponent(key));
export const editPathOf = (
  descriptor: Pick<ScreenDescriptor, 'route' | 'key' | 'editRoute'>,
  row: Row,
) => editPath(descriptor, String(row[descriptor.key]));

/**
 * Every path of every screen: an engine screen's list at `route`, `route/new` and its edit
 * page (`editRoute`, or `route/{key}/edit`), or a settings document's one form at `route`
 * (and its `pages`); a bespoke screen's
 * `route` (its list) and its `pages`.
 */
export function screenRoutes(screens: ScreenSummary[]): ScreenRoute[] {
  return screens.flatMap((screen): ScreenRoute[] => {
    const own = { screen, permission: screen.permission };
    if (!screen.component && isSettingsScreen(screen))
      return [
        { ...own, path: screen.route, view: 'edit' },
        // The same form at the further paths the spec names it by.
        ...(screen.pages ?? []).map((page) => ({
          screen,
          path: page.path,
          view: 'edit' as const,
          permission: page.permission ?? screen.permission,
          title: page.title,
        })),
      ];
    if (!screen.component) {
      return [
        { ...own, path: screen.route, view: 'list' },
        { ...own, path: newPath(screen.route), view: 'new' },
        {
          ...own,
          path: editTemplate(screen).replace(KEY_PLACEHOLDER, `:${KEY_PARAM}`),
          view: 'edit',
        },
        // Further paths of its forms, as the spec names them (`retention/edit` is the new form).
        ...(screen.pages ?? []).map((page) => ({
          screen,
          path: page.path,
          view: page.view ?? 'list',
          permission: page.permission ?? screen.permission,
          title: page.title,
        })),
      ];
    }
    return [
      { ...own, path: screen.route, view: 'list' },
      ...(screen.pages ?? []).map((page) => ({
        screen,
        path: page.path,
        view: page.view ?? 'list',
        permission: page.permission ?? screen.permission,
        title: page.title,
      })),
    ];
  });
}

/**
 * Which screen page a path shows, if any. React Router ranks the paths, as it does when it
 * renders them: `/admin/repositories/layouts` beats `/admin/repositories/:repoType`.
 */
export function resolveScreenView(
  pathname: string,
  screens: ScreenSummary[],
): ScreenView | undefined {
  const routes = screenRoutes(screens);
  const matches = matchRoutes(
    routes.map((route, index) => ({ path: route.path, id: String(index) })),
    pathname,
  );
  const match = matches?.at(-1);
  if (!match) return undefined;
  const route = routes[Number(match.route.id)];
  const base = { screen: route.screen, route };
  if (route.view !== 'edit') return { ...base, view: route.view };
  return { ...base, view: 'edit', key: match.params[KEY_PARAM] };
}

/** The page title of a screen view: the page's own, else the descriptor's form titles. */
export function screenViewTitle(view: ScreenView, descriptor?: LoadedDescriptor): string {
  if (view.route.title) return view.route.title;
  if (view.view === 'list' || !descriptor || view.screen.component) return view.screen.title;
  if (isSettingsDescriptor(descriptor)) return view.screen.title;
  if (view.view === 'new') return descriptor.form.newTitle ?? view.screen.title;
  return fillTemplate(descriptor.form.editTitle ?? view.screen.title, {
    [descriptor.key]: view.key,
  });
}
