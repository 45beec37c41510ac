import type { MenuGroup } from './menu';

/**
 * The groups whose links match the search (case-insensitive, anywhere in the label, or in
 * the group's name, which keeps the whole group); groups left with no link are omitted.
 */
export function filterMenuGroups(groups: MenuGroup[], term: string): MenuGroup[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return groups;
  return groups
    .map((group) =>
      group.group.toLowerCase().includes(needle)
        ? group
        : { ...group, items: group.items.filter((i) => i.label.toLowerCase().includes(needle)) },
    )
    .filter((group) => group.items.length > 0);
}

/** A label cut where the search matched, for marking the match. */
export function highlightParts(label: string, term: string): { text: string; match: boolean }[] {
  const needle = term.trim().toLowerCase();
  const at = needle ? label.toLowerCase().indexOf(needle) : -1;
  if (at < 0) return [{ text: label, match: false }];
  return [
    { text: label.slice(0, at), match: false },
    { text: label.slice(at, at + needle.length), match: true },
    { text: label.slice(at + needle.length), match: false },
  ].filter((part) => part.text !== '');
}
