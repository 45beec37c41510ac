import type { CurrentUser } from '../../api/auth';
import type { MenuEntry, ScreenSummary } from '../../api/descriptor';
import { canAccess } from '../access';

export interface MenuItem {
  label: string;
  route: string;
}
export interface MenuGroup {
  group: string;
  items: MenuItem[];
}
export interface MenuSection {
  section: MenuEntry['section'];
  groups: MenuGroup[];
}

const SECTIONS: MenuEntry['section'][] = ['Application', 'Administration'];

/**
 * The sidebar's sections from the descriptors' `menu` entries: an item only for a screen
 * that exists and that this user may use; Administration only for admins (and managers'
 * screens for managers); empty groups
 * and sections left out. Items by `order`, groups by their first item.
 */
export function buildMenu(
  screens: ScreenSummary[],
  user: CurrentUser | null,
  anonAccessEnabled: boolean,
): MenuSection[] {
  const usable = screens.filter(
    (s): s is ScreenSummary & { menu: MenuEntry } =>
      s.menu !== undefined &&
      canAccess(user, s.permission, anonAccessEnabled) &&
      // Administration is for admins, but for the screens a manager may use too.
      (s.menu.section !== 'Administration' || user?.admin === true || s.permission === 'manager'),
  );
  const byOrder = (a: { menu: MenuEntry }, b: { menu: MenuEntry }) =>
    (a.menu.order ?? Number.MAX_SAFE_INTEGER) - (b.menu.order ?? Number.MAX_SAFE_INTEGER) ||
    a.menu.label.localeCompare(b.menu.label);

  return SECTIONS.map((section) => {
    const inSection = usable.filter((s) => s.menu.section === section).sort(byOrder);
    const groups: MenuGroup[] = [];
    for (const screen of inSection) {
      let group = groups.find((g) => g.group === screen.menu.group);
      if (!group) groups.push((group = { group: screen.menu.group, items: [] }));
      group.items.push({ label: screen.menu.label, route: screen.route });
    }
    return { section, groups };
  }).filter((section) => section.groups.length > 0);
}

/**
 * The Project Settings menu, which replaces Administration while a project is selected
 * (spec 01 §2 Sidebar): the screens with a `projectMenu` entry, grouped and ordered alike.
 * Who may open each one is for its guard and the server to say, as the project decides.
 */
export function buildProjectMenu(screens: ScreenSummary[]): MenuGroup[] {
  const entries = screens
    .filter((s) => s.projectMenu !== undefined)
    .map((s) => ({ route: s.route, menu: s.projectMenu as Omit<MenuEntry, 'section'> }))
    .sort(
      (a, b) =>
        (a.menu.order ?? Number.MAX_SAFE_INTEGER) - (b.menu.order ?? Number.MAX_SAFE_INTEGER) ||
        a.menu.label.localeCompare(b.menu.label),
    );
  const groups: MenuGroup[] = [];
  for (const { route, menu } of entries) {
    let group = groups.find((g) => g.group === menu.group);
    if (!group) groups.push((group = { group: menu.group, items: [] }));
    group.items.push({ label: menu.label, route });
  }
  return groups;
}

/** The user menu's links: screens with a `userMenu` entry that this user may open. */
export function buildUserMenuLinks(
  screens: ScreenSummary[],
  user: CurrentUser | null,
  anonAccessEnabled: boolean,
): MenuItem[] {
  return screens
    .filter((s) => s.userMenu !== undefined && canAccess(user, s.permission, anonAccessEnabled))
    .map((s) => ({ label: (s.userMenu as { label: string }).label, route: s.route }));
}
