import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERMISSION_LABELS as L,
  PERMISSION_MESSAGES,
} from '../src/custom/permissions-editor/messages.ts';
import { DEPLOY_LABELS } from '../src/custom/tree-browser/deploy/messages.ts';
import { NOT_FOUND_TEXT, PAGE_TITLES } from '../src/shell/messages.ts';
import { ACTION_LABELS, TREE_LABELS } from '../src/custom/tree-browser/messages.ts';
import { chooseOption, launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { basicAuth, scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * An admin gives a team exactly the access it needs with the permissions editor, against a
 * real server: the name rules, a repository section by name, a user dragged in with Delete
 * (and what it implies), a group without permissions confirmed away, then the grant checked
 * by deploying as that user; editing keeps the By Name mode; deleting from the list.
 */
const ADMIN_PASSWORD = 'perm-admin-pass-1';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

/** A call as the admin, or as a user whose password is `{user}-pass-1`. */
function asScript(method: string, path: string, body?: unknown, user = 'admin') {
  const password = user === 'admin' ? ADMIN_PASSWORD : `${user}-pass-1`;
  return scriptedCall(depot, { user, password }, method, path, body);
}

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  for (const key of ['team-local', 'other-local'])
    await asScript('PUT', `/artifactory/api/repositories/${key}`, {
      rclass: 'local',
      packageType: 'generic',
    });
  const dev = await asScript('POST', '/ui/api/v1/ui/users', {
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
  expect(dev.status).toBeLessThan(300);
  await asScript('POST', '/ui/api/v1/ui/groups', { name: 'qa' });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(15000);
  pageErrors = watchPageErrors(page);
  await page.goto(depot.ui('/login'));
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.waitForURL(/\/ui\/admin\//);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

const repositories = () => page.getByRole('region', { name: 'Repositories' });
const nameField = () => page.getByLabel(/^Name/).first();

describe('the permissions editor', () => {
  it('creates a target for a user, confirming away a group without permissions', async () => {
    await page.goto(depot.ui('/admin/management/permissions'));
    await page.getByRole('link', { name: L.newPermission }).click();
    await page.getByRole('button', { name: L.create }).click();
    await page.getByText(PERMISSION_MESSAGES.nameEmpty).waitFor();

    await nameField().fill('team');
    await repositories().getByLabel('team-local').check();
    await repositories().getByLabel('By Name').check();
    await repositories().getByLabel(L.names).fill('org');
    await expect(page.getByRole('button', { name: L.create }).isDisabled()).resolves.toBe(true);
    await repositories()
      .getByRole('button', { name: L.resourceSave('Repositories') })
      .click();

    const available = page.getByRole('list', { name: L.available('users') });
    await expect(available.getByRole('button', { name: L.add('admin') }).count()).resolves.toBe(0);
    await available
      .getByText('dev', { exact: true })
      .dragTo(page.getByRole('region', { name: L.selected('users') }));
    const dev = page.getByRole('group', { name: 'dev', exact: true });
    await dev.getByLabel('Delete/Overwrite').check();
    for (const implied of ['Read', 'Annotate', 'Deploy/Cache'])
      await expect(dev.getByLabel(implied).isChecked()).resolves.toBe(true);
    await expect(dev.getByLabel('Manage', { exact: true }).isChecked()).resolves.toBe(false);

    await page.getByRole('tab', { name: 'Groups' }).click();
    await page
      .getByRole('list', { name: L.available('groups') })
      .getByRole('button', { name: L.add('qa') })
      .click();
    await page.getByRole('button', { name: L.create }).click();
    await page
      .getByRole('alertdialog')
      .getByText(L.confirmText(['qa']))
      .waitFor();
    await page.getByRole('button', { name: L.saveAnyway }).click();
    await page.waitForURL(/\/management\/permissions$/);
    await page.getByRole('link', { name: 'team', exact: true }).waitFor();

    const stored = await (
      await asScript('GET', '/artifactory/api/v2/security/permissions/team')
    ).json();
    expect(stored.repo).toEqual({
      'include-patterns': ['org/**'],
      'exclude-patterns': [],
      repositories: ['team-local'],
      actions: { users: { dev: ['read', 'annotate', 'write', 'delete'] }, groups: {} },
    });
    expect((await asScript('PUT', '/artifactory/team-local/org/a.txt', 'a', 'dev')).status).toBe(
      201,
    );
    expect((await asScript('PUT', '/artifactory/team-local/other/a.txt', 'a', 'dev')).status).toBe(
      403,
    );
    expect((await asScript('PUT', '/artifactory/other-local/org/a.txt', 'a', 'dev')).status).toBe(
      403,
    );
  });

  it('refuses a name already taken', async () => {
    await page.goto(depot.ui('/admin/management/permissions/create'));
    await nameField().fill('team');
    await page.getByRole('button', { name: L.create }).click();
    await page.getByText(PERMISSION_MESSAGES.nameExists).waitFor();
  });

  it('edits a target in its By Name mode, and the implications drop later actions', async () => {
    // A release-bundle section set by a script: the console shows it granted (Release
    // Bundles), and a save from the console keeps it.
    const scripted = await (
      await asScript('GET', '/artifactory/api/v2/security/permissions/team')
    ).json();
    const releaseBundle = {
      'include-patterns': ['**'],
      'exclude-patterns': [],
      repositories: ['release-bundles'],
      actions: { users: {}, groups: { qa: ['read'] } },
    };
    const put = await asScript('PUT', '/artifactory/api/v2/security/permissions/team', {
      ...scripted,
      releaseBundle,
    });
    expect(put.status).toBeLessThan(300);
    await page.goto(depot.ui('/admin/management/permissions'));
    await page.getByRole('link', { name: 'team', exact: true }).click();
    await page.getByRole('heading', { name: L.editTitle('team') }).waitFor();
    await expect(repositories().getByLabel('By Name').isChecked()).resolves.toBe(true);
    await expect(repositories().getByLabel(L.names).inputValue()).resolves.toBe('org');
    await page.getByRole('region', { name: 'Release Bundles' }).waitFor();
    await page.getByRole('tab', { name: 'Groups' }).click();
    const qaBundles = page
      .getByRole('group', { name: 'qa', exact: true })
      .getByRole('group', { name: 'Release Bundles' });
    await expect(qaBundles.getByLabel('Read').isChecked()).resolves.toBe(true);
    await expect(qaBundles.getByLabel('Create').isChecked()).resolves.toBe(false);
    await page.getByRole('tab', { name: 'Users' }).click();
    // dev has a row per section with data: Repositories and now Release Bundles
    await page
      .getByRole('group', { name: 'dev', exact: true })
      .getByRole('group', { name: 'Repositories' })
      .getByLabel('Annotate')
      .uncheck();
    await page.getByRole('button', { name: L.save, exact: true }).click();
    await page.waitForURL(/\/management\/permissions$/);
    const stored = await (
      await asScript('GET', '/artifactory/api/v2/security/permissions/team')
    ).json();
    expect(stored.repo.actions.users.dev).toEqual(['read']);
    expect(stored.releaseBundle).toEqual(releaseBundle);
    expect((await asScript('PUT', '/artifactory/team-local/org/b.txt', 'b', 'dev')).status).toBe(
      403,
    );
  });

  it('grants a group deploy on a pattern: its member sees only that repository, deploys, cannot delete', async () => {
    // tess is in qa only: not in readers, so the default targets grant her nothing
    const tess = await asScript('POST', '/ui/api/v1/ui/users', {
      name: 'tess',
      email: 'tess@example.com',
      password: 'tess-pass-1',
      groups: ['qa'],
    });
    expect(tess.status).toBeLessThan(300);
    await page.goto(depot.ui('/admin/management/permissions/create'));
    await nameField().fill('qa-deployers');
    await repositories().getByLabel('team-local').check();
    await repositories().getByLabel('By Pattern').check();
    await repositories().getByLabel(L.includePatterns).fill('org/**');
    await repositories()
      .getByRole('button', { name: L.resourceSave('Repositories') })
      .click();
    await page.getByRole('tab', { name: 'Groups' }).click();
    // dragging is the first test's; here the Add button, as a keyboard user adds
    await page
      .getByRole('list', { name: L.available('groups') })
      .getByRole('button', { name: L.add('qa') })
      .click();
    await page.getByRole('group', { name: 'qa', exact: true }).getByLabel('Deploy/Cache').check();
    await page.getByRole('button', { name: L.create }).click();
    await page.waitForURL(/\/management\/permissions$/);

    const member = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const memberErrors = watchPageErrors(member);
    try {
      await member.goto(depot.ui('/login'));
      await signIn(member, 'tess', 'tess-pass-1');
      await member.waitForURL((url) => !url.pathname.endsWith('/login'));
      member.setDefaultTimeout(15000);
      await member.goto(depot.ui('/repos/tree/General/team-local'));
      const tree = member.getByRole('tree', { name: TREE_LABELS.tree });
      await tree.getByRole('treeitem').first().waitFor();
      const roots = await tree.getByRole('treeitem').locator('.tree-text').allTextContents();
      expect(roots).toEqual(['team-local']); // other-local is out of her reach

      await member.getByRole('button', { name: DEPLOY_LABELS.deploy }).click();
      const dialog = member.getByRole('dialog');
      await chooseOption(dialog, DEPLOY_LABELS.targetRepository, 'team-local');
      await dialog.getByLabel(DEPLOY_LABELS.targetFolder).fill('org/qa');
      await dialog
        .getByLabel(DEPLOY_LABELS.files)
        .setInputFiles([
          { name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('qa report') },
        ]);
      await dialog.getByRole('button', { name: DEPLOY_LABELS.deploy }).click();
      await member.getByText(DEPLOY_LABELS.deployed(1)).waitFor();
      await member.goto(depot.ui('/repos/tree/General/team-local/org/qa/report.txt'));
      const actions = member.getByRole('toolbar', { name: 'Actions' });
      await actions.getByRole('button', { name: ACTION_LABELS.names.download }).waitFor();
      await expect(
        actions.getByRole('button', { name: ACTION_LABELS.names.delete }).count(),
      ).resolves.toBe(0);
      expect(memberErrors).toEqual([]);
    } finally {
      await member.close();
    }
    expect((await asScript('GET', '/artifactory/team-local/org/qa/report.txt')).status).toBe(200);
    const asTess = { authorization: basicAuth('tess', 'tess-pass-1') };
    const refused = await fetch(`${depot.baseUrl}/artifactory/team-local/org/qa/report.txt`, {
      method: 'DELETE',
      headers: asTess,
    });
    expect(refused.status).toBe(403);
  });

  it("lets a manager who is not an admin change others' actions, not the resources nor their own row", async () => {
    const mia = await asScript('POST', '/ui/api/v1/ui/users', {
      name: 'mia',
      email: 'mia@example.com',
      password: 'mia-pass-1',
    });
    expect(mia.status).toBeLessThan(300);
    const target = await asScript('PUT', '/artifactory/api/v2/security/permissions/qa-managed', {
      name: 'qa-managed',
      repo: {
        repositories: ['team-local'],
        actions: { users: { mia: ['manage'], dev: ['read'] }, groups: {} },
      },
    });
    expect(target.status).toBeLessThan(300);

    const manager = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const managerErrors = watchPageErrors(manager);
    try {
      manager.setDefaultTimeout(15000);
      await manager.goto(depot.ui('/login'));
      await signIn(manager, 'mia', 'mia-pass-1');
      await manager.waitForURL((url) => !url.pathname.endsWith('/login'));
      await manager.getByRole('link', { name: L.title }).click();
      await manager.waitForURL(/\/management\/permissions$/);
      await manager.getByRole('link', { name: 'qa-managed', exact: true }).waitFor();
      // only what she manages, and neither New nor Delete
      expect(await manager.getByRole('link', { name: 'team', exact: true }).count()).toBe(0);
      expect(await manager.getByRole('link', { name: L.newPermission }).count()).toBe(0);
      expect(await manager.getByRole('button', { name: L.deleteRow('qa-managed') }).count()).toBe(
        0,
      );

      await manager.getByRole('link', { name: 'qa-managed', exact: true }).click();
      await manager.getByText(L.managerNote).waitFor();
      const resources = manager.getByRole('region', { name: 'Repositories' });
      await expect(resources.getByLabel('team-local').isDisabled()).resolves.toBe(true);
      await expect(resources.getByLabel('team-local').isChecked()).resolves.toBe(true);
      const own = manager.getByRole('group', { name: 'mia', exact: true });
      await own.getByText(L.ownRowNote).waitFor();
      await expect(own.getByLabel('Manage', { exact: true }).isDisabled()).resolves.toBe(true);
      expect(await own.getByRole('button', { name: L.remove('mia') }).count()).toBe(0);

      await manager
        .getByRole('group', { name: 'dev', exact: true })
        .getByLabel('Deploy/Cache')
        .check();
      await manager.getByRole('button', { name: L.save, exact: true }).click();
      await manager.waitForURL(/\/management\/permissions$/);
      expect(managerErrors).toEqual([]);
    } finally {
      await manager.close();
    }
    const saved = await asScript('GET', '/artifactory/api/v2/security/permissions/qa-managed');
    const body = (await saved.json()) as { repo: { repositories: string[]; actions: object } };
    expect(body.repo.repositories).toEqual(['team-local']);
    expect(body.repo.actions).toEqual({
      users: {
        mia: ['read', 'annotate', 'write', 'delete', 'managedXrayMeta', 'manage'],
        dev: ['read', 'annotate', 'write'],
      },
      groups: {},
    });
  });

  it('deletes a target from the list after confirming', async () => {
    await page.goto(depot.ui('/admin/management/permissions'));
    await page.getByRole('button', { name: L.deleteRow('team') }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: L.delete }).click();
    await page.getByRole('link', { name: 'team', exact: true }).waitFor({ state: 'detached' });
    expect((await asScript('GET', '/artifactory/api/v2/security/permissions/team')).status).toBe(
      404,
    );
  });

  it('keeps a remote repository checked on reopening, and after another is unchecked', async () => {
    const remote = await asScript('PUT', '/artifactory/api/repositories/npm-remote', {
      rclass: 'remote',
      packageType: 'npm',
      url: 'https://registry.example.test/',
    });
    expect(remote.status).toBeLessThan(300);
    await page.goto(depot.ui('/admin/management/permissions/create'));
    await nameField().fill('with-remote');
    await repositories().getByLabel('npm-remote', { exact: true }).check();
    await repositories().getByLabel('other-local').check();
    await repositories()
      .getByRole('button', { name: L.resourceSave('Repositories') })
      .click();
    await page
      .getByRole('list', { name: L.available('users') })
      .getByRole('button', { name: L.add('dev') })
      .click();
    await page.getByRole('group', { name: 'dev', exact: true }).getByLabel('Read').check();
    await page.getByRole('button', { name: L.create }).click();
    await page.waitForURL(/\/management\/permissions$/);
    const path = '/artifactory/api/v2/security/permissions/with-remote';
    expect((await (await asScript('GET', path)).json()).repo.repositories).toEqual([
      'npm-remote-cache',
      'other-local',
    ]);

    await page.getByRole('link', { name: 'with-remote', exact: true }).click();
    await page.getByRole('heading', { name: L.editTitle('with-remote') }).waitFor();
    const remoteBox = repositories().getByLabel('npm-remote', { exact: true });
    await expect(remoteBox.isChecked()).resolves.toBe(true);
    await repositories().getByLabel('other-local').uncheck();
    await repositories()
      .getByRole('button', { name: L.resourceSave('Repositories') })
      .click();
    await page.getByRole('button', { name: L.save, exact: true }).click();
    await page.waitForURL(/\/management\/permissions$/);
    expect((await (await asScript('GET', path)).json()).repo.repositories).toEqual([
      'npm-remote-cache',
    ]);
    await page.getByRole('link', { name: 'with-remote', exact: true }).click();
    await expect(
      repositories().getByLabel('npm-remote', { exact: true }).isChecked(),
    ).resolves.toBe(true);
  });

  it('sends unknown users, groups and permission targets to the 404 page', async () => {
    for (const path of [
      '/admin/management/users/no-such-user/edit',
      '/admin/management/groups/no-such-group/edit',
      '/admin/management/permissions/edit/no-such-target',
    ]) {
      await page.goto(depot.ui(path));
      await page.waitForURL(/\/ui\/404$/);
      await page.getByRole('heading', { name: PAGE_TITLES.notFound }).waitFor();
      await page.getByText(NOT_FOUND_TEXT).waitFor();
    }
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
