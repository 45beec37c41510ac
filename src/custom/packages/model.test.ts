import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import type { PackageNode, VersionNode } from './api';
import {
  $endCursor,
  $listFailed,
  $packages,
  $packagesFetched,
  $search,
  $versionChoices,
  $versions,
  listFx,
  listOpened,
  moreFx,
  moreRequested,
  onlyReleasesToggled,
  packageFx,
  packageOpened,
  searchSubmitted,
  versionFiltersChanged,
  versionsFx,
} from './model';
import { $projects, $selectedProjectKey, projectSelected } from '../../shell/project/model';
import type { Project } from '../../api/projects';
import { fetchCurrentUserFx, logoutFx } from '../../shell/session/model';
import { defaultVersionTab, installSnippets, packagePath } from './messages';

const pkg = (name: string): PackageNode => ({
  id: `npm://${name}`,
  name,
  packageType: 'npm',
  description: '',
  created: '2026-11-01T00:00:00.000Z',
  modified: '2026-11-01T00:00:00.000Z',
  versionsCount: 1,
  latestVersion: '1.0.0',
  stats: { downloads: 0 },
  licenses: [],
  tags: [],
});

const page = (names: string[], endCursor: string | null) => ({
  edges: names.map((name) => ({ node: pkg(name) })),
  pageInfo: { hasNextPage: endCursor !== null, endCursor },
});

describe('package browser model', () => {
  it('lists, searches with the search kept, and pages on demand', async () => {
    const list = vi
      .fn()
      .mockResolvedValueOnce(page(['a', 'b'], 'c2'))
      .mockResolvedValueOnce(page(['left-pad'], null));
    const more = vi.fn().mockResolvedValue(page(['c'], null));
    const scope = fork({
      handlers: [
        [listFx, list],
        [moreFx, more],
      ],
    });
    expect(scope.getState($packagesFetched)).toBe(false);
    await allSettled(listOpened, { scope });
    expect(scope.getState($packagesFetched)).toBe(true);
    expect(scope.getState($endCursor)).toBe('c2');
    await allSettled(moreRequested, { scope });
    expect(more).toHaveBeenCalledWith({ search: {}, after: 'c2' });
    expect(scope.getState($packages).map((p) => p.name)).toEqual(['a', 'b', 'c']);
    await allSettled(searchSubmitted, { scope, params: { name: 'left' } });
    expect(list).toHaveBeenLastCalledWith({ name: 'left' });
    expect(scope.getState($packages).map((p) => p.name)).toEqual(['left-pad']);
    // Nothing more to fetch: a further request asks for nothing.
    await allSettled(moreRequested, { scope });
    expect(more).toHaveBeenCalledTimes(1);
  });

  it('fetches a package and its versions, again when only releases are asked for', async () => {
    const versions = vi
      .fn()
      .mockResolvedValue([{ name: '1.0.0', repos: [], licenses: [] } as unknown as VersionNode]);
    const scope = fork({
      handlers: [
        [packageFx, vi.fn().mockResolvedValue(pkg('left-pad'))],
        [versionsFx, versions],
      ],
    });
    await allSettled(packageOpened, { scope, params: 'npm://left-pad' });
    expect(versions).toHaveBeenLastCalledWith({ id: 'npm://left-pad', onlyReleases: false });
    await allSettled(onlyReleasesToggled, { scope, params: true });
    expect(versions).toHaveBeenLastCalledWith({ id: 'npm://left-pad', onlyReleases: true });
    expect(scope.getState($versions)).toHaveLength(1);
  });
});

describe('package browser filters', () => {
  it('lists a project’s packages in its context, and again when another project is chosen', async () => {
    const list = vi.fn().mockResolvedValue(page(['a'], null));
    const scope = fork({
      values: [
        [$projects, [{ project_key: 'web', display_name: 'Web' } as Project]],
        [$selectedProjectKey, 'web'],
      ],
      handlers: [[listFx, list]],
    });
    await allSettled(listOpened, { scope });
    expect(list).toHaveBeenLastCalledWith({ projectKey: 'web' });
    await allSettled(projectSelected, { scope, params: 'default' });
    expect(list).toHaveBeenLastCalledWith({});
  });

  it('sends the version filters, and offers the repositories and licenses of every version', async () => {
    const version = (name: string, repo: string, license: string) =>
      ({ name, repos: [{ name: repo }], licenses: [{ name: license }] }) as VersionNode;
    const versions = vi
      .fn()
      .mockResolvedValueOnce([version('1.0.0', 'npm-a', 'MIT'), version('2.0.0', 'npm-b', 'ISC')])
      .mockResolvedValueOnce([version('1.0.0', 'npm-a', 'MIT')]);
    const scope = fork({
      handlers: [
        [packageFx, vi.fn().mockResolvedValue(pkg('left-pad'))],
        [versionsFx, versions],
      ],
    });
    await allSettled(packageOpened, { scope, params: 'npm://left-pad' });
    expect(scope.getState($versionChoices)).toEqual({
      repos: ['npm-a', 'npm-b'],
      licenses: ['ISC', 'MIT'],
    });
    await allSettled(versionFiltersChanged, { scope, params: { license: 'MIT' } });
    expect(versions).toHaveBeenLastCalledWith({
      id: 'npm://left-pad',
      onlyReleases: false,
      filters: { license: 'MIT' },
    });
    expect(scope.getState($versions)).toHaveLength(1);
    // The choices stay those of every version while a filter narrows the list.
    expect(scope.getState($versionChoices).licenses).toEqual(['ISC', 'MIT']);
  });
});

describe('package browser list failures (spec 02 §2 empty states)', () => {
  it('marks the list failed when its call fails, until a search answers again', async () => {
    let failing = true;
    const list = vi.fn(async () => {
      if (failing) throw new Error('the package index is not ready');
      return page(['a'], null);
    });
    const scope = fork({ handlers: [[listFx, list]] });
    await allSettled(listOpened, { scope });
    expect(scope.getState($listFailed)).toBe(true);
    expect(scope.getState($packages)).toEqual([]);
    failing = false;
    await allSettled(searchSubmitted, { scope, params: { tags: ['padding'], scope: '@acme' } });
    expect(list).toHaveBeenLastCalledWith({ tags: ['padding'], scope: '@acme' });
    expect(scope.getState($listFailed)).toBe(false);
    expect(scope.getState($packages).map((p) => p.name)).toEqual(['a']);
  });
});

describe('package browser state across sessions', () => {
  it('asks once when the list opens twice while its first page is on its way', async () => {
    type Page = ReturnType<typeof page>;
    let finish: (answer: Page) => void = () => {};
    const list = vi.fn(() => new Promise<Page>((resolve) => (finish = resolve)));
    const scope = fork({ handlers: [[listFx, list]] });
    const opened = [allSettled(listOpened, { scope }), allSettled(listOpened, { scope })];
    await vi.waitFor(() => expect(list).toHaveBeenCalled());
    finish(page(['a'], null));
    await Promise.all(opened);
    expect(list).toHaveBeenCalledTimes(1);
    expect(scope.getState($packages).map((p) => p.name)).toEqual(['a']);
  });

  it('clears everything on logout (spec 02 §4)', async () => {
    const scope = fork({
      values: [
        [$packages, [pkg('secret-lib')]],
        [$search, { name: 'secret' }],
        [$packagesFetched, true],
      ],
      handlers: [
        [logoutFx, vi.fn(async () => undefined)],
        // after logout the server answers the anonymous user (GET /ui/auth/current)
        [
          fetchCurrentUserFx,
          vi.fn(async () => ({ name: 'anonymous', anonymous: true, admin: false })),
        ],
      ],
    });
    await allSettled(logoutFx, { scope });
    expect(scope.getState($packages)).toEqual([]);
    expect(scope.getState($search)).toEqual({});
    expect(scope.getState($packagesFetched)).toBe(false);
  });
});

describe('package browser texts', () => {
  it('gives install snippets per client, with and without a version', () => {
    const text = (...args: Parameters<typeof installSnippets>) =>
      Object.fromEntries(installSnippets(...args).map((s) => [s.client, s.text]));
    expect(text('npm', 'left-pad')).toEqual({
      npm: 'npm install left-pad',
      Yarn: 'yarn add left-pad',
      pnpm: 'pnpm add left-pad',
    });
    expect(text('npm', '@acme/tool', '1.0.0').npm).toBe('npm install @acme/tool@1.0.0');
    expect(text('pypi', 'requests', '2.0')).toEqual({
      pip: 'pip install requests==2.0',
      Poetry: 'poetry add requests@2.0',
      uv: 'uv add requests==2.0',
    });
    const maven = text('maven', 'org.acme:app', '1.0');
    expect(maven.Maven).toContain('<version>1.0</version>');
    expect(maven['Gradle (Kotlin)']).toBe('implementation("org.acme:app:1.0")');
    expect(maven['Gradle (Groovy)']).toBe("implementation 'org.acme:app:1.0'");
    expect(maven.sbt).toBe('libraryDependencies += "org.acme" % "app" % "1.0"');
    expect(
      text('docker', 'team/app', '1.2', { host: 'depot.test:8080', repoKey: 'docker-local' }),
    ).toEqual({
      Docker: 'docker pull depot.test:8080/docker-local/team/app:1.2',
      Podman: 'podman pull depot.test:8080/docker-local/team/app:1.2',
    });
    // an image with nowhere to pull it from, or a type with no client: nothing to show
    expect(installSnippets('docker', 'team/app', '1.2')).toEqual([]);
    expect(installSnippets('generic', 'x')).toEqual([]);
  });

  it('opens npm versions on the readme and others on the properties', () => {
    expect(defaultVersionTab('npm')).toBe('readme');
    expect(defaultVersionTab('pypi')).toBe('properties');
    expect(packagePath('npm://@acme/tool', '1.0.0')).toBe(
      '/packages/npm%3A%2F%2F%40acme%2Ftool/1.0.0',
    );
  });
});
