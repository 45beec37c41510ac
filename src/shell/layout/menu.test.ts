import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../api/auth';
import type { ScreenSummary } from '../../api/descriptor';
import { buildMenu, buildProjectMenu, buildUserMenuLinks } from './menu';
import { shippedScreens } from '../../screens/testing';

const screens: ScreenSummary[] = [
  {
    id: 'groups',
    title: 'Groups',
    route: '/admin/management/groups',
    permission: 'admin',
    menu: { section: 'Administration', group: 'User Management', label: 'Groups', order: 20 },
  },
  {
    id: 'users',
    title: 'Users',
    route: '/admin/management/users',
    permission: 'admin',
    menu: { section: 'Administration', group: 'User Management', label: 'Users', order: 10 },
  },
  {
    id: 'packages',
    title: 'Packages',
    route: '/packages',
    permission: 'anonymous',
    menu: { section: 'Application', group: 'Artifacts', label: 'Packages' },
  },
  {
    id: 'tokens',
    title: 'Tokens',
    route: '/tokens',
    permission: 'user',
    menu: { section: 'Application', group: 'Me', label: 'Tokens' },
  },
  { id: 'hidden', title: 'Hidden', route: '/hidden', permission: 'user' },
  {
    id: 'permissions',
    title: 'Permissions',
    route: '/admin/management/permissions',
    permission: 'manager',
    menu: { section: 'Administration', group: 'User Management', label: 'Permissions', order: 30 },
  },
];
const admin: CurrentUser = { name: 'admin', admin: true, anonymous: false };
const jo: CurrentUser = { name: 'jo', admin: false, anonymous: false };
const anonymous: CurrentUser = { name: 'anonymous', admin: false, anonymous: true };

describe('buildMenu', () => {
  it("gives a target's manager Administration with the permissions screen only", () => {
    const manager = buildMenu(screens, { ...jo, canManagePermissions: true }, false);
    expect(manager.find((section) => section.section === 'Administration')).toEqual({
      section: 'Administration',
      groups: [
        {
          group: 'User Management',
          items: [{ label: 'Permissions', route: '/admin/management/permissions' }],
        },
      ],
    });
    const plain = buildMenu(screens, jo, false);
    expect(plain.map((section) => section.section)).toEqual(['Application']);
  });

  it('gives admins both sections, items in order, screens without menu left out', () => {
    expect(buildMenu(screens, admin, false)).toEqual([
      {
        section: 'Application',
        groups: [
          { group: 'Artifacts', items: [{ label: 'Packages', route: '/packages' }] },
          { group: 'Me', items: [{ label: 'Tokens', route: '/tokens' }] },
        ],
      },
      {
        section: 'Administration',
        groups: [
          {
            group: 'User Management',
            items: [
              { label: 'Users', route: '/admin/management/users' },
              { label: 'Groups', route: '/admin/management/groups' },
              { label: 'Permissions', route: '/admin/management/permissions' },
            ],
          },
        ],
      },
    ]);
  });

  it('gives users no Administration section', () => {
    expect(buildMenu(screens, jo, false).map((s) => s.section)).toEqual(['Application']);
  });

  it('shows anonymous visitors only anonymous screens, and only when anonymous access is on', () => {
    expect(buildMenu(screens, anonymous, true)).toEqual([
      {
        section: 'Application',
        groups: [{ group: 'Artifacts', items: [{ label: 'Packages', route: '/packages' }] }],
      },
    ]);
    expect(buildMenu(screens, anonymous, false)).toEqual([]);
  });

  it('never shows an Administration item to a non-admin, whatever its permission says', () => {
    const odd: ScreenSummary = {
      id: 'x',
      title: 'X',
      route: '/x',
      permission: 'user',
      menu: { section: 'Administration', group: 'G', label: 'X' },
    };
    expect(buildMenu([odd], jo, false)).toEqual([]);
  });
});

describe('the menus of the shipped descriptors', () => {
  it('builds Project Settings from the projectMenu entries, in order (spec 01 §2)', () => {
    expect(buildProjectMenu(shippedScreens)).toEqual([
      {
        group: 'Projects',
        items: [
          { label: 'Overview', route: '/admin/projects/overview' },
          { label: 'Members', route: '/admin/projects/members' },
          { label: 'Roles', route: '/admin/projects/roles' },
          { label: 'Repositories', route: '/admin/repositories/local' },
          { label: 'Storage', route: '/admin/projects/storage' },
        ],
      },
    ]);
  });

  it('links the user menu to the profile for signed-in users, not for visitors', () => {
    expect(buildUserMenuLinks(shippedScreens, jo, true)).toEqual([
      { label: 'Edit Profile', route: '/admin/artifactory/user_profile' },
    ]);
    expect(buildUserMenuLinks(shippedScreens, anonymous, true)).toEqual([]);
  });

  it('gives admins every item of the shipped screens, in their groups', () => {
    const labels = buildMenu(shippedScreens, admin, false).flatMap((section) =>
      section.groups.map(
        (group) =>
          `${section.section} > ${group.group}: ${group.items.map((i) => i.label).join(', ')}`,
      ),
    );
    expect(labels).toEqual([
      'Application > Depot: Packages, Builds, Artifacts',
      'Administration > Projects: Projects',
      'Administration > Repositories: Repositories, Layouts',
      'Administration > Configuration: General Configuration, Property Sets, Reverse Proxy, Webhooks, Proxies, Mail, Access Tokens',
      'Administration > Services: Backups, Retention Policies, Cold Storage Monitoring',
      'Administration > User Management: Users, Invite User, Groups, Permissions',
      'Administration > License Management: License Buckets',
      'Administration > Security: General',
      'Administration > Advanced: Maintenance, Config Descriptor, Security Descriptor',
      'Administration > Monitoring: Topology, Storage Summary, Service Status, System Logs, Support Zone',
    ]);
  });
});
