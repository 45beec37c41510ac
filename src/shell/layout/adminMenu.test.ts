import { describe, expect, it } from 'vitest';
import { shippedScreensFor } from '../../screens/testing';
import { adminUser } from '../session/testUsers';
import { buildMenu } from './menu';
import { filterMenuGroups, highlightParts } from './adminMenu';

const adminGroups = () =>
  buildMenu(shippedScreensFor(adminUser), adminUser, false).find(
    (s) => s.section === 'Administration',
  )!.groups;

describe('the admin menu page (spec 01 §2)', () => {
  it('keeps the links the search matches and omits groups left empty', () => {
    const shown = filterMenuGroups(adminGroups(), 'topo');
    expect(shown).toEqual([
      {
        group: 'Monitoring',
        items: [{ label: 'Topology', route: '/admin/mission_control/topology' }],
      },
    ]);
    expect(filterMenuGroups(adminGroups(), '  ')).toEqual(adminGroups());
    expect(filterMenuGroups(adminGroups(), 'no such page')).toEqual([]);
  });

  it("keeps a whole group when its name matches, and marks a label's match", () => {
    const users = filterMenuGroups(adminGroups(), 'user management');
    expect(users.map((g) => g.group)).toEqual(['User Management']);
    expect(users[0]!.items.length).toBeGreaterThan(1);
    expect(highlightParts('Storage Summary', 'sum')).toEqual([
      { text: 'Storage ', match: false },
      { text: 'Sum', match: true },
      { text: 'mary', match: false },
    ]);
    expect(highlightParts('Users', 'x')).toEqual([{ text: 'Users', match: false }]);
  });
});
