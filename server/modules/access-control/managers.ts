import { ALL_SECTIONS, presentSections, type PermissionTarget } from './permission-target.ts';

/**
 * Managers of a permission target (spec 01 §6: "Manage allows changing other principals'
 * settings in a target but not adding or removing resources"). A user manages a target when
 * it grants Manage, in any section, to the user by name or to one of its groups.
 */
/** A user as permission targets know it: by name and by its groups. */
export interface Grantee {
  name: string;
  groups: readonly string[];
}

export function manages(target: PermissionTarget, who: Grantee): boolean {
  return presentSections(target).some(
    ({ actions }) =>
      actions.users[who.name]?.includes('manage') ||
      who.groups.some((group) => actions.groups[group]?.includes('manage')),
  );
}

/**
 * The rows a manager may not edit: their own, and their groups'. Changing either would
 * change the manager's own permissions, which only an administrator may do. This is the
 * console's isLoggedInAsManager (spec 01 §3), for both kinds of principal.
 */
export function lockedRows(who: Grantee): { users: string[]; groups: string[] } {
  return { users: [who.name], groups: [...who.groups] };
}

/** What a manager's save may not change: everything but the other principals' actions. */
export type ManagerChangeProblem = 'resources' | 'own-rows';

export function managerChangeProblem(
  stored: PermissionTarget,
  proposed: PermissionTarget,
  who: Grantee,
): ManagerChangeProblem | undefined {
  const locked = lockedRows(who);
  for (const section of ALL_SECTIONS) {
    const before = stored[section];
    const after = proposed[section];
    if (!before || !after) {
      if (before !== after) return 'resources';
      continue;
    }
    const { actions: beforeActions, ...beforeResources } = before;
    const { actions: afterActions, ...afterResources } = after;
    if (canonical(beforeResources) !== canonical(afterResources)) return 'resources';
    for (const kind of ['users', 'groups'] as const) {
      const changed = (name: string) =>
        canonical(beforeActions[kind][name] ?? []) !== canonical(afterActions[kind][name] ?? []);
      if (locked[kind].some(changed)) return 'own-rows';
    }
  }
  return undefined;
}

/**
 * A value as text that ignores object key order (the database reorders JSON keys) and the
 * order of list items (repositories and patterns are sets).
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).sort().join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
