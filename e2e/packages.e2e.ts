import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { PACKAGE_LABELS as L, PACKAGE_MESSAGES as M } from '../src/custom/packages/messages.ts';
import { DOCKER_INFO_LABELS as D } from '../src/components/DockerImageInfo.tsx';
import {
  SET_ME_UP_LABELS as S,
  SET_ME_UP_MESSAGES as SM,
} from '../src/custom/set-me-up/messages.ts';
import { npmCli, npmrc, type NpmCli } from '../tests/helpers/npm-cli.ts';
import { NPM_LOGIN_LABELS as N } from '../src/custom/npm-login/messages.ts';
import { buildWheel } from '../tests/helpers/python-dists.ts';
import {
  chooseOption,
  chosenOption,
  launchBrowser,
  openFreshPage,
  openListbox,
  selectTrigger,
  signIn,
} from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * The package browser in a real browser, over packages the real npm CLI published and a
 * wheel uploaded as twine sends it: a user lands on the list, searches, opens a package
 * with its versions and install command, and a version on its default tab.
 */
const ADMIN = { user: 'admin', password: 'packages-admin-pass-1' };
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];
let cli: NpmCli;

/** A README as packages write them, with what a hostile one would try: HTML, script, images. */
const FIRST_README = [
  '# depot-e2e-lib',
  'The first release.',
  '| Option | Default |\n|---|---|\n| `pad` | `" "` |',
  '<script>window.readmeScriptRan = true</script>',
  '<img src="/ui/no-such-image.png" onerror="window.readmeScriptRan = true">',
  '![build status](https://badges.example/status.svg)',
].join('\n\n');

const admin = (method: string, path: string, body?: unknown) =>
  scriptedCall(depot, ADMIN, method, path, body);

async function publishWithNpm(version: string, readme: string, tag = 'latest') {
  const dir = cli.packageDir(
    {
      name: 'depot-e2e-lib',
      version,
      description: 'A library for the e2e test',
      license: 'MIT',
      keywords: ['e2e-tag'],
      dependencies: { 'left-pad': '^1.3.0' },
      devDependencies: { vitest: '^3.0.0' },
    },
    readme,
  );
  await cli.npm(['publish', '--tag', tag], dir);
}

beforeAll(async () => {
  depot = await startDepot(ADMIN.password);
  for (const [key, packageType] of [
    ['npm-local', 'npm'],
    ['pypi-local', 'pypi'],
    ['docker-local', 'docker'],
  ]) {
    const made = await admin('PUT', `/artifactory/api/repositories/${key}`, {
      rclass: 'local',
      packageType,
    });
    expect(made.status).toBe(200);
  }
  const registry = `${depot.baseUrl}/artifactory/api/npm/npm-local/`;
  const auth = Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64');
  cli = npmCli(npmrc(registry, { [registry]: `_auth=${auth}` }));
  await publishWithNpm('1.0.0', FIRST_README);
  await publishWithNpm('1.1.0-beta.1', '# depot-e2e-lib\n\nA beta.\n', 'next');

  const wheel = await buildWheel({ name: 'depot-e2e-py', version: '2.0.0' });
  const form = new FormData();
  form.set(':action', 'file_upload');
  form.set('name', 'depot-e2e-py');
  form.set('version', '2.0.0');
  form.set('content', new Blob([new Uint8Array(wheel.content)]), wheel.filename);
  expect((await admin('POST', '/artifactory/api/pypi/pypi-local', form)).status).toBe(200);

  const user = await admin('POST', '/ui/api/v1/ui/users', {
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-12',
    groups: ['readers'],
  });
  expect(user.status).toBe(201);
  browser = await launchBrowser();
  ({ page, pageErrors } = await openFreshPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  cli?.close();
});

const grid = (name: string) => page.getByLabel(name, { exact: true });
const digestOf = (content: string) =>
  `sha256:${createHash('sha256').update(content).digest('hex')}`;

/** Pushes a one-layer OCI image over the registry protocol, as a client does: blobs, then the manifest. */
async function pushImage(name: string, tag: string, config: string, layer: string) {
  for (const blob of [config, layer]) {
    const path = `/v2/docker-local/${name}/blobs/uploads/?digest=${digestOf(blob)}`;
    expect((await admin('POST', path, new TextEncoder().encode(blob))).status).toBe(201);
  }
  const manifest = new TextEncoder().encode(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: digestOf(config),
        size: config.length,
      },
      layers: [
        {
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          digest: digestOf(layer),
          size: layer.length,
        },
      ],
    }),
  );
  const put = await admin('PUT', `/v2/docker-local/${name}/manifests/${tag}`, manifest);
  expect(put.status, await put.text()).toBe(201);
  return `sha256:${createHash('sha256').update(manifest).digest('hex')}`;
}

describe('the package browser', () => {
  it('lands a user on the packages, and searches them', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'dev', 'dev-pass-12');
    await page.waitForURL(/\/ui\/packages$/);
    await grid(L.title).getByRole('link', { name: 'depot-e2e-lib' }).waitFor();
    await grid(L.title).getByRole('link', { name: 'depot-e2e-py' }).waitFor();
    // the list's license and tags columns
    await grid(L.title).getByText('e2e-tag').waitFor();
    await grid(L.title).getByText('MIT', { exact: true }).waitFor();

    await page.getByLabel(L.search).fill('no-such-package');
    await page.getByRole('button', { name: L.searchButton, exact: true }).click();
    await page.getByText(M.noneFound).waitFor();

    await page.getByLabel(L.search).fill('e2e-py');
    await page.getByRole('button', { name: L.searchButton, exact: true }).click();
    await grid(L.title).getByRole('link', { name: 'depot-e2e-py' }).waitFor();
    expect(await grid(L.title).getByRole('link', { name: 'depot-e2e-lib' }).count()).toBe(0);

    // The further filters: nothing was published after tomorrow; both were after yesterday.
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
    await page.getByLabel(L.search).fill('');
    await page.getByText(L.moreFilters).click();
    await page.getByLabel(L.createdAfter).fill(day(1));
    await page.getByRole('button', { name: L.searchButton, exact: true }).click();
    await page.getByText(M.noneFound).waitFor();
    await page.getByLabel(L.createdAfter).fill(day(-1));
    await page.getByRole('button', { name: L.searchButton, exact: true }).click();
    await grid(L.title).getByRole('link', { name: 'depot-e2e-lib' }).waitFor();
    await grid(L.title).getByRole('link', { name: 'depot-e2e-py' }).waitFor();
    await page.getByLabel(L.createdAfter).fill('');
  });

  it('shows a package with its versions, newest first, and its install command', async () => {
    await page.getByLabel(L.search).fill('');
    await page.getByRole('button', { name: L.searchButton, exact: true }).click();
    await grid(L.title).getByRole('link', { name: 'depot-e2e-lib' }).click();
    await page.waitForURL(/\/ui\/packages\/npm%3A%2F%2Fdepot-e2e-lib$/);
    await page.getByRole('heading', { name: 'depot-e2e-lib' }).waitFor();
    const install = page.getByLabel(L.installLatest);
    expect(await install.locator('code').textContent()).toBe('npm install depot-e2e-lib');
    await install.getByRole('tab', { name: 'Yarn' }).click();
    await expect.poll(() => install.locator('code').textContent()).toBe('yarn add depot-e2e-lib');
    await install.getByRole('button', { name: /^Copy/ }).waitFor();
    // the package's licenses and tags, as the list shows them too
    await page.getByText('e2e-tag').waitFor();
    const versions = grid(L.versions).getByRole('link');
    await versions.first().waitFor();
    expect(await versions.allTextContents()).toEqual(['1.1.0-beta.1', '1.0.0']);

    await page.getByLabel(L.onlyReleases).check();
    await page.getByText(M.semverOnly).waitFor();
    await expect.poll(() => versions.allTextContents()).toEqual(['1.0.0']);
  });

  it('filters the versions by version, repository and license', async () => {
    await page.getByLabel(L.onlyReleases).uncheck();
    const versions = grid(L.versions).getByRole('link');
    await expect.poll(() => versions.allTextContents()).toEqual(['1.1.0-beta.1', '1.0.0']);
    const filters = page.getByRole('form', { name: L.versionFilters });
    await filters.getByLabel(L.versionFilter).fill('beta');
    await filters.getByLabel(L.versionFilter).press('Enter');
    await expect.poll(() => versions.allTextContents()).toEqual(['1.1.0-beta.1']);
    await filters.getByLabel(L.versionFilter).fill('');
    await filters.getByLabel(L.versionFilter).press('Enter');
    await chooseOption(filters, L.licenseFilter, 'MIT');
    await chooseOption(filters, L.repositoryFilter, 'npm-local');
    await expect.poll(() => versions.allTextContents()).toEqual(['1.1.0-beta.1', '1.0.0']);
    expect(await chosenOption(filters, L.licenseFilter)).toBe('MIT');
    await selectTrigger(filters, L.licenseFilter).click();
    expect(await openListbox(page).getByRole('option').allTextContents()).toEqual([
      L.anyLicense,
      'MIT',
    ]);
    await page.keyboard.press('Escape');
  });

  it('opens an npm version on its readme, with its files and their checksums', async () => {
    await grid(L.versions).getByRole('link', { name: '1.0.0' }).click();
    await page.waitForURL(/\/ui\/packages\/npm%3A%2F%2Fdepot-e2e-lib\/1\.0\.0$/);
    expect(await page.getByLabel(L.installThis).locator('code').textContent()).toBe(
      'npm install depot-e2e-lib@1.0.0',
    );
    expect(await page.getByRole('tab', { name: L.readme }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const readme = page.getByRole('tabpanel', { name: L.readme });
    await readme.getByText('The first release.').waitFor();
    // Rendered as Markdown, safely: a heading and a table; no HTML, no script, no image loaded.
    await readme.getByRole('heading', { name: 'depot-e2e-lib' }).waitFor();
    expect(await readme.getByRole('cell', { name: 'pad' }).count()).toBe(1);
    expect(await readme.locator('script, img').count()).toBe(0);
    expect(await page.evaluate(() => 'readmeScriptRan' in window)).toBe(false);
    const badge = readme.getByRole('link', { name: 'Image: build status' });
    expect(await badge.getAttribute('href')).toBe('https://badges.example/status.svg');

    await page.getByRole('tab', { name: L.dependencies }).click();
    const dependencies = page.getByRole('table', { name: L.dependencies });
    await dependencies.getByRole('row', { name: /left-pad \^1\.3\.0 runtime/ }).waitFor();
    await dependencies.getByRole('row', { name: /vitest \^3\.0\.0 dev/ }).waitFor();

    await page.getByRole('tab', { name: L.files }).click();
    await page.waitForURL(/activeTab=files/);
    const row = page.getByRole('row', { name: /depot-e2e-lib-1\.0\.0\.tgz/ });
    await row.waitFor();
    expect(await row.locator('code').first().textContent()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('opens a PyPI version on its properties', async () => {
    await page.goto(depot.ui('/packages/pypi%3A%2F%2Fdepot-e2e-py/2.0.0'));
    expect(await page.getByLabel(L.installThis).locator('code').textContent()).toBe(
      'pip install depot-e2e-py==2.0.0',
    );
    const properties = page.getByRole('tabpanel', { name: L.properties });
    await properties.getByRole('cell', { name: 'pypi.version' }).waitFor();
    // PyPI versions have a readme (the long description) and dependencies, but open on properties
    expect(await page.getByRole('tab', { name: L.properties }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await page.getByRole('tab', { name: L.readme }).click();
    await page.getByRole('tabpanel', { name: L.readme }).getByText(M.noReadme).waitFor();
    await page.getByRole('tab', { name: L.dependencies }).click();
    await page
      .getByRole('tabpanel', { name: L.dependencies })
      .getByText(M.noDependencies)
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows a Docker tag in the package browser and the tree: tag, digest, layers, pull command', async () => {
    const config = JSON.stringify({
      os: 'linux',
      architecture: 'amd64',
      history: [{ created_by: 'COPY app /app' }],
    });
    const layer = 'e2e layer content';
    const digest = await pushImage('e2e/app', '1.0', config, layer);
    const host = new URL(depot.baseUrl).host;

    await page.goto(depot.ui('/packages/docker%3A%2F%2Fe2e%2Fapp/1.0'));
    const pull = page.getByLabel(D.pull);
    expect(await pull.locator('code').textContent()).toBe(
      `docker pull ${host}/docker-local/e2e/app:1.0`,
    );
    await page.getByRole('tab', { name: L.layers }).click();
    const layers = page.getByRole('tabpanel', { name: L.layers });
    await layers.getByText(digest).waitFor();
    const row = layers.getByRole('row', { name: new RegExp(digestOf(layer)) });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe(`${layer.length} bytes`);
    expect(await row.locator('code').last().textContent()).toBe('COPY app /app');

    await page.goto(depot.ui('/repos/tree/DockerV2Info/docker-local/e2e/app/1.0'));
    const info = page.getByRole('tabpanel');
    await info.getByText(digest).waitFor();
    expect(await page.getByRole('tab', { name: 'Docker Info' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await info.getByRole('cell', { name: 'COPY app /app' }).waitFor();
    await info.getByText('linux / amd64').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('sets npm up with the user’s own API key, and the .npmrc it shows works', async () => {
    await page.getByRole('button', { name: S.open }).click();
    const dialog = page.getByRole('dialog', { name: S.title });
    await selectTrigger(dialog, S.repository).waitFor();
    expect(await chosenOption(dialog, S.repository)).toBe('npm-local');
    // Deploying needs more than the readers group has.
    await dialog.getByText(SM.noDeployPermission).waitFor();

    await dialog.getByLabel(S.password, { exact: true }).fill('not-the-password');
    await dialog.getByRole('button', { name: S.insert }).click();
    await dialog.getByText(SM.wrongPassword).waitFor();
    await dialog.getByLabel(S.password, { exact: true }).fill('dev-pass-12');
    await dialog.getByRole('button', { name: S.insert }).click();
    await dialog.getByText(SM.noApiKey).waitFor();
    await dialog.getByRole('button', { name: S.createApiKey }).click();
    await dialog.getByText(S.inserted).waitFor();

    const npmrc = await dialog.getByLabel('.npmrc', { exact: true }).textContent();
    expect(npmrc).toMatch(/:_auth=[A-Za-z0-9+/=]+\n/);
    // Every line is seen whole: the long auth line wraps inside the dialog, not past its edge.
    const overflow = await dialog
      .getByLabel('.npmrc', { exact: true })
      .evaluate((pre) => pre.scrollWidth - pre.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const configured = npmCli(npmrc!);
    try {
      const { stdout } = await configured.npm(['view', 'depot-e2e-lib', 'version']);
      expect(stdout.trim()).toBe('1.0.0');
    } finally {
      configured.close();
    }
    await dialog.getByRole('button', { name: S.close }).click();
    expect(pageErrors).toEqual([]);
  });

  it('signs npm in on the web: the user approves on the page `npm login` prints', async () => {
    const registry = `${depot.baseUrl}/artifactory/api/npm/npm-local/`;
    const fresh = npmCli(npmrc(registry, {}));
    try {
      let approved: Promise<void> | undefined;
      const login = await fresh.npmWatching(['login'], (output) => {
        const url = /(http\S+\/ui\/npm-login\/[A-Za-z0-9_-]+)/.exec(output)?.[1];
        if (!url || approved) return;
        // The user opens the URL npm shows, signed in to the console as dev.
        approved = (async () => {
          await page.goto(url);
          await page.getByText(N.asking('npm-local', 'dev')).waitFor();
          await page.getByRole('button', { name: N.approve }).click();
          await page.getByText(N.approved).waitFor();
        })();
      });
      await approved;
      expect(login.code, login.output).toBe(0);
      expect((await fresh.npm(['whoami'])).stdout.trim()).toBe('dev');
    } finally {
      fresh.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
