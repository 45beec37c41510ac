import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EffectivePermissionsPage } from '../server/modules/effective-permissions/service.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
const DEV_PASSWORD = 'dev-password-1';

beforeAll(async () => {
  depot = await startTestDepot();
  const { repositories, users, groups } = depot.services;
  await repositories.create({
    key: 'libs-local',
    rclass: 'local',
    packageType: 'generic',
  } as never);
  const put = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/libs-local/a/b.txt',
    headers: adminAuth(),
    payload: 'b',
  });
  expect(put.statusCode).toBe(201);
  await users.create({ name: 'dev', email: 'dev@example.com', password: DEV_PASSWORD });
  await users.create({ name: 'ops', email: 'ops@example.com', password: 'ops-password-1' });
  await groups.create({ name: 'operators', adminPrivileges: true, usersInGroup: ['ops'] });
  for (let i = 0; i < 30; i++) {
    const name = `u-${String(i).padStart(2, '0')}`;
    await users.create({ name, email: `${name}@example.com`, internalPasswordDisabled: true });
  }
});
afterAll(() => depot.close());

const ask = (query: string, headers: object = adminAuth()) =>
  depot.app.inject({
    method: 'GET',
    url: `/ui/api/v1/ui/artifactpermissions?${query}`,
    headers: { ...headers },
  });
async function page(query: string): Promise<EffectivePermissionsPage> {
  const response = await ask(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const row = (p: EffectivePermissionsPage, principal: string) =>
  p.data.find((r) => r.principal === principal);

describe('effective permissions of a node', () => {
  it('grants admins and admin groups everything, other users read, 25 a page by principal', async () => {
    const first = await page('repoKey=libs-local&path=a/b.txt');
    // admin, dev, ops, 30 u-nn users, the admin group operators, and the group readers that
    // every install starts with (its target Anything grants read everywhere)
    expect(first.totalCount).toBe(35);
    expect(first.data).toHaveLength(25);
    expect(first.data[0].principal).toBe('admin');
    const everything = { read: true, annotate: true, deploy: true, delete: true, manage: true };
    expect(row(first, 'admin')!.actions).toEqual(everything);
    expect(row(first, 'ops')!.actions).toEqual(everything);
    expect(row(first, 'operators')).toEqual({
      principal: 'operators',
      type: 'group',
      actions: everything,
    });
    expect(row(first, 'dev')!.actions).toEqual({
      read: true,
      annotate: false,
      deploy: false,
      delete: false,
      manage: false,
    });
    const second = await page('repoKey=libs-local&path=a/b.txt&pageNum=2');
    expect(second.data).toHaveLength(10);
    const names = [...first.data, ...second.data].map((r) => r.principal);
    expect(new Set(names).size).toBe(35);
    expect(row(first, 'readers')).toEqual({
      principal: 'readers',
      type: 'group',
      actions: { read: true, annotate: false, deploy: false, delete: false, manage: false },
    });
    const descending = await page('repoKey=libs-local&path=a&direction=desc&numOfRows=1');
    expect(descending.data[0].principal).toBe('u-29');
  });

  it('shows what a permission target grants, only where its patterns reach', async () => {
    const target = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/a-deployers',
      headers: adminAuth(),
      payload: {
        repo: {
          'include-patterns': ['a/**'],
          repositories: ['libs-local'],
          actions: { users: { dev: ['delete'] }, groups: {} },
        },
      },
    });
    expect(target.statusCode, target.body).toBe(201);
    try {
      const inside = row(await page('repoKey=libs-local&path=a/b.txt&numOfRows=100'), 'dev');
      expect(inside!.actions).toEqual({
        read: true,
        annotate: true,
        deploy: true,
        delete: true,
        manage: false,
      });
      await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/libs-local/c.txt',
        headers: adminAuth(),
        payload: 'c',
      });
      const outside = row(await page('repoKey=libs-local&path=c.txt&numOfRows=100'), 'dev');
      expect(outside!.actions.deploy).toBe(false);
    } finally {
      await depot.app.inject({
        method: 'DELETE',
        url: '/artifactory/api/v2/security/permissions/a-deployers',
        headers: adminAuth(),
      });
    }
  });

  it('adds the anonymous user as a reader while anonymous access is on', async () => {
    await depot.services.securityConfig.update({ anonAccessEnabled: true });
    try {
      const p = await page('repoKey=libs-local&numOfRows=100');
      expect(row(p, 'anonymous')!.actions.read).toBe(true);
      expect(row(p, 'anonymous')!.actions.deploy).toBe(false);
    } finally {
      await depot.services.securityConfig.update({ anonAccessEnabled: false });
    }
    expect(row(await page('repoKey=libs-local&numOfRows=100'), 'anonymous')).toBeUndefined();
  });

  it('is a tab for admins only, after General', async () => {
    const tabsFor = async (headers: object) => {
      const response = await depot.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
        headers: { ...headers },
        payload: { type: 'file', repoKey: 'libs-local', path: 'a/b.txt' },
      });
      return (response.json().tabs as { name: string }[]).map((tab) => tab.name);
    };
    expect((await tabsFor(adminAuth())).slice(0, 2)).toEqual(['General', 'EffectivePermission']);
    expect(await tabsFor({ authorization: basic('dev', DEV_PASSWORD) })).not.toContain(
      'EffectivePermission',
    );
  });

  it('is for admins only, and answers 404 for a missing node and 400 for bad paging', async () => {
    const asDev = await ask('repoKey=libs-local&path=a', {
      authorization: basic('dev', DEV_PASSWORD),
    });
    expect(asDev.statusCode).toBe(403);
    expect((await ask('repoKey=libs-local&path=nope')).statusCode).toBe(404);
    expect((await ask('repoKey=missing-local')).statusCode).toBe(404);
    expect((await ask('repoKey=libs-local&pageNum=0')).statusCode).toBe(400);
    expect((await ask('repoKey=libs-local&numOfRows=100000')).statusCode).toBe(400);
    expect((await ask('repoKey=libs-local&path=../etc')).statusCode).toBe(400);
  });
});
