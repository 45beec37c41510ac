import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftZip, unzip } from './helpers/archives.ts';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import {
  adminAuth,
  basic,
  createMavenRepository,
  createRepository,
  deployFile,
  devWithOnlyGrant,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Every route that acts on more than the item its request names declares it
 * (`config: { reach: 'many' }`, server/http/permissions.ts) and is run here as `dev`, whose
 * one grant is everything but what lies in a `secret` folder (and npm packages named
 * `secret-pkg-*`): read, annotate, deploy and delete. Each case aims at a folder holding
 * `secret/s2.txt`. A change must be refused whole: the answer is the refusal, nothing in the
 * database changed, the excluded item is where it was with its content and properties, and
 * not in the trash can. A read must leave the excluded item out. Each change then runs on a
 * folder without an excluded item (as an administrator for admin-only routes), which must
 * succeed, so that the refusal is known to come from the excluded item alone.
 *
 * The cases are keyed by route, and the catalog decides which routes need one: a route that
 * declares `reach: 'many'` without a case fails, and so does a mutating route that neither
 * declares it nor is listed in ONE_ITEM_OR_NONE with the reason it touches no more than the
 * item it names. A new route cannot slip through unclassified (docs/access-control.md).
 */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const ADMIN = adminAuth();
type Who = Record<string, string>;
type Answer = Awaited<ReturnType<TestDepot['app']['inject']>>;

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
let counter = 0;
const fresh = (prefix: string) => `${prefix}${++counter}`;

function call(
  method: string,
  url: string,
  who: Who,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return depot.app.inject({
    method: method as 'GET',
    url,
    headers: { ...who, ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
}

/** An item that must come through a refused operation as it was. */
interface Excluded {
  repoKey: string;
  path: string;
  content: string;
}

/** What a case works on: the folder it names, and the excluded item below it. */
interface Fixture {
  repoKey: string;
  folder: string;
  excluded: Excluded;
}

/** `pub-local/{folder}/pub.txt` and the excluded `pub-local/{folder}/secret/s2.txt;keep=1`. */
async function generic(folder = fresh('case-'), repoKey = 'pub-local'): Promise<Fixture> {
  await deployFile(depot, repoKey, `${folder}/pub.txt`, `pub ${folder}`);
  const excluded = { repoKey, path: `${folder}/secret/s2.txt`, content: `secret ${folder}` };
  await deployFile(depot, repoKey, `${excluded.path};keep=1`, excluded.content);
  return { repoKey, folder, excluded };
}

/** A folder with nothing excluded below it, for the control run. */
async function clean(repoKey = 'pub-local') {
  const folder = fresh('clean-');
  await deployFile(depot, repoKey, `${folder}/pub.txt`, `pub ${folder}`);
  return folder;
}

/** A repository of its own with one readable file, for controls on a repository's root. */
async function cleanRepository() {
  const key = fresh('clean-repo-');
  await createRepository(depot, key, 'local');
  await deployFile(depot, key, 'c.txt', 'clean');
  return key;
}

/** A generic fixture deleted into the trash can by the administrator. */
async function trashed(): Promise<Fixture> {
  const fixture = await generic();
  const gone = await call('DELETE', `/artifactory/pub-local/${fixture.folder}`, ADMIN);
  expect(gone.statusCode, gone.body).toBe(204);
  return fixture;
}

/** A remote repository's cache holding `{folder}/pub.txt` and `{folder}/secret/s2.txt`. */
async function cached(): Promise<Fixture> {
  const folder = fresh('cache-');
  const repo = (await depot.services.repositories.findRow('up-remote'))!;
  const excluded = { repoKey: 'up-remote', path: `${folder}/secret/s2.txt`, content: 'cached' };
  for (const path of [`${folder}/pub.txt`, excluded.path]) {
    const staged = await depot.services.filestore.stage(Readable.from([Buffer.from('cached')]), {});
    await depot.services.artifacts.recordCachedFile(repo, path, staged, 'admin');
  }
  return { repoKey: 'up-remote', folder, excluded };
}

/** Maven: `{g}/lib/1.0` holds `lib-1.0.jar` and the excluded `secret/notes.txt`. */
async function maven(): Promise<Fixture> {
  const group = fresh('grp');
  await deployFile(depot, 'mvn-local', `${group}/lib/1.0/lib-1.0.jar`, 'jar');
  const excluded = {
    repoKey: 'mvn-local',
    path: `${group}/lib/1.0/secret/notes.txt`,
    content: 'notes',
  };
  await deployFile(depot, 'mvn-local', `${excluded.path};keep=1`, excluded.content);
  // A version known from excluded files only: dev must not learn of it.
  await deployFile(depot, 'mvn-local', `${group}/secret/lib/3.0/lib-3.0.jar`, 'hidden jar');
  return { repoKey: 'mvn-local', folder: group, excluded };
}

/** An npm package with versions 1.0.0 and 2.0.0, published by the administrator. */
async function npmPackage(name: string): Promise<Fixture> {
  for (const version of ['1.0.0', '2.0.0']) {
    const tarball = await packTarball({ 'package.json': JSON.stringify({ name, version }) });
    const published = await call(
      'PUT',
      `/artifactory/api/npm/npm-local/${name}`,
      ADMIN,
      publishDocument(name, version, tarball),
      { 'content-type': 'application/json' },
    );
    expect(published.statusCode, published.body).toBe(201);
  }
  const path = `${name}/-/${name}-1.0.0.tgz`;
  const content = (await call('GET', `/artifactory/npm-local/${path}`, ADMIN)).body;
  return { repoKey: 'npm-local', folder: name, excluded: { repoKey: 'npm-local', path, content } };
}

/** The package's document without version 1.0.0: npm's first step of unpublishing it. */
async function withoutFirstVersion(name: string) {
  const document = JSON.parse(
    (await call('GET', `/artifactory/api/npm/npm-local/${name}`, ADMIN)).body,
  ) as { versions: Record<string, unknown>; time?: Record<string, unknown> };
  delete document.versions['1.0.0'];
  delete document.time?.['1.0.0'];
  return document;
}

/** Everything a refused change could have touched, in a stable order. */
async function snapshot() {
  const { db } = depot;
  const nodes = await db
    .selectFrom('nodes')
    .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
    .select(['repositories.key', 'nodes.path', 'nodes.sha256', 'nodes.modified_at'])
    .orderBy('repositories.key')
    .orderBy('nodes.path')
    .execute();
  const properties = await db
    .selectFrom('node_properties')
    .innerJoin('nodes', 'nodes.id', 'node_properties.node_id')
    .select(['nodes.repository_id', 'nodes.path', 'node_properties.key', 'node_properties.value'])
    .orderBy('nodes.repository_id')
    .orderBy('nodes.path')
    .orderBy('node_properties.key')
    .orderBy('node_properties.value')
    .execute();
  const rootProperties = await db
    .selectFrom('repository_properties')
    .selectAll()
    .orderBy('repository_id')
    .orderBy('key')
    .orderBy('value')
    .execute();
  const cache = await db
    .selectFrom('remote_cache_entries')
    .innerJoin('nodes', 'nodes.id', 'remote_cache_entries.node_id')
    .select(['nodes.path', 'remote_cache_entries.checked_at'])
    .orderBy('nodes.path')
    .execute();
  const versions = await db
    .selectFrom('package_versions')
    .select(['package_id', 'version', 'node_id'])
    .orderBy('package_id')
    .orderBy('version')
    .execute();
  return JSON.stringify({ nodes, properties, rootProperties, cache, versions });
}

/** The excluded item is where it was, with its content and properties. */
async function expectIntact(excluded: Excluded, where = excluded) {
  const [repoKey, path] = [where.repoKey, where.path];
  const download = await call('GET', `/artifactory/${repoKey}/${path}`, ADMIN);
  expect(download.statusCode, `${repoKey}/${path}`).toBe(200);
  expect(download.body).toBe(excluded.content);
  if (repoKey === 'pub-local' || repoKey === 'mvn-local') {
    const properties = await call(
      'GET',
      `/artifactory/api/storage/${repoKey}/${path}?properties`,
      ADMIN,
    );
    expect(JSON.parse(properties.body).properties).toEqual({ keep: ['1'] });
  }
}

async function inTrash(excluded: Excluded) {
  const url = `/artifactory/api/storage/auto-trashcan/${excluded.repoKey}/${excluded.path}`;
  return (await call('GET', url, ADMIN)).statusCode === 200;
}

/** A change: refused whole as dev, then allowed where nothing is excluded. */
interface ChangeCase {
  kind: 'change';
  prepare: () => Promise<Fixture>;
  run: (fixture: Fixture) => Promise<Answer>;
  /** The refusal's status: 403 unless the operation refuses the request for another reason. */
  refusal?: number;
  /** The same operation where nothing is excluded: it must succeed. */
  control?: () => Promise<Answer>;
  /** Why a case has no control. */
  noControl?: string;
  /** Why the refusal may name the excluded item: the request named it itself. */
  namesOwnPath?: string;
  /** Where the excluded item is kept when it is not at its own place (the trash). */
  keptAt?: (fixture: Fixture) => Excluded;
}

/** A read: the excluded item is left out of what dev reads, and the readable one is in. */
interface ReadCase {
  kind: 'read';
  prepare: () => Promise<Fixture>;
  run: (fixture: Fixture) => Promise<Answer>;
  /** What the answer holds, as names the case compares. */
  names?: (answer: Answer, fixture: Fixture) => Promise<{ has: boolean; lacks: boolean }>;
}

type Case = ChangeCase | ReadCase;

const zipNames = async (answer: Answer) => [...(await unzip(answer.rawPayload)).keys()];
/** A folder download holds `pub.txt` (relative, or under the folder) and no secret file. */
const archiveNames = async (answer: Answer, fixture: Fixture) => {
  expect(answer.statusCode, answer.body.slice(0, 200)).toBe(200);
  const names = await zipNames(answer);
  return {
    has: names.some((name) => name === 'pub.txt' || name === `${fixture.folder}/pub.txt`),
    lacks: !names.some((name) => name.includes('secret/')),
  };
};
const json = (answer: Answer) => JSON.parse(answer.body) as Record<string, unknown>;

const copyTo = (kind: string, from: string, to: string, who: Who) =>
  call('POST', `/artifactory/api/${kind}/${from}?to=/${to}`, who);
const consoleTransfer = (kind: string, repoKey: string, path: string, who: Who) =>
  call('POST', `/ui/api/v1/ui/artifactactions/${kind}`, who, {
    repoKey,
    path,
    targetRepoKey: 'target-local',
    targetPath: fresh(`${kind}-`),
  });
const bundle = (folder: string, who: Who, entries: [string, string][]) =>
  call(
    'PUT',
    `/artifactory/pub-local/${folder}/bundle.zip`,
    who,
    craftZip(entries.map(([name, data]) => ({ name, data: Buffer.from(data) }))),
    { 'x-explode-archive': 'true' },
  );
const properties = (action: string, repoKey: string, path: string, who: Who, body: unknown) =>
  call(
    'POST',
    `/ui/api/v1/ui/${action}?repoKey=${repoKey}&path=${encodeURIComponent(path)}&recursive=true`,
    who,
    body,
  );
const npmRev = (method: string, name: string, who: Who, body?: unknown) =>
  call(
    method,
    `/artifactory/api/npm/npm-local/${name}/-rev/1`,
    who,
    body,
    body === undefined ? {} : { 'content-type': 'application/json' },
  );
const trashItem = (fixture: Fixture) => ({
  repoKey: 'auto-trashcan',
  path: `${fixture.excluded.repoKey}/${fixture.excluded.path}`,
  content: fixture.excluded.content,
});
const versionsOf = async (answer: Answer, fixture: Fixture) => {
  expect(answer.statusCode, answer.body).toBe(200);
  const groups = (json(answer).versions as { groupId: string }[]).map((v) => v.groupId);
  return {
    has: groups.includes(fixture.folder),
    lacks: !groups.includes(`${fixture.folder}.secret`),
  };
};

/** Pushes a one-layer image to `docker-local` as the administrator; answers its manifest. */
async function dockerImage(image: string, tag: string, config: string) {
  const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
  for (const blob of [config, 'layer']) {
    const pushed = await call(
      'POST',
      `/v2/docker-local/${image}/blobs/uploads/?digest=${digest(blob)}`,
      ADMIN,
      blob,
      { 'content-type': 'application/octet-stream' },
    );
    expect(pushed.statusCode, pushed.body).toBe(201);
  }
  const manifest = dockerManifest(config);
  const put = await putDockerManifest(image, tag, manifest, ADMIN);
  expect(put.statusCode, put.body).toBe(201);
  return manifest;
}

function dockerManifest(config: string) {
  const descriptor = (text: string) => ({
    mediaType: 'application/octet-stream',
    digest: `sha256:${createHash('sha256').update(text).digest('hex')}`,
    size: text.length,
  });
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: descriptor(config),
    layers: [descriptor('layer')],
  });
}

const putDockerManifest = (
  image: string,
  tag: string,
  manifest: string,
  who: Who,
  base = '/v2/docker-local',
) =>
  call('PUT', `${base}/${image}/manifests/${tag}`, who, manifest, {
    'content-type': 'application/vnd.oci.image.manifest.v1+json',
  });

/** A Docker image's tag folder `{image}/v1` holding the excluded `secret/s2.txt`. */
async function dockerTagged(): Promise<Fixture> {
  const image = fresh('img-');
  await dockerImage(image, 'v1', '{"one":1}');
  const excluded = {
    repoKey: 'docker-local',
    path: `${image}/v1/secret/s2.txt`,
    content: 'secret',
  };
  await deployFile(depot, 'docker-local', excluded.path, excluded.content);
  return { repoKey: 'docker-local', folder: `${image}/v1`, excluded };
}

/** The tag `v1` of a Docker image with nothing excluded below it, for the controls. */
async function cleanDockerTag() {
  const image = fresh('clean-img-');
  await dockerImage(image, 'v1', '{"one":1}');
  return image;
}

/** Deleting a tag, and moving it to another manifest, remove the tag folder's files. */
const dockerCases = (base: string): Case[] => [
  {
    kind: 'change',
    prepare: () => dockerTagged(),
    run: (f) => call('DELETE', `${base}/${f.folder.replace('/v1', '')}/manifests/v1`, DEV),
    control: async () => call('DELETE', `${base}/${await cleanDockerTag()}/manifests/v1`, DEV),
  },
  {
    kind: 'change',
    prepare: async () => {
      const fixture = await dockerTagged();
      await dockerImage(fixture.folder.replace('/v1', ''), 'v2', '{"two":2}');
      return fixture;
    },
    run: (f) =>
      putDockerManifest(f.folder.replace('/v1', ''), 'v1', dockerManifest('{"two":2}'), DEV, base),
    control: async () => {
      const image = await cleanDockerTag();
      await dockerImage(image, 'v2', '{"two":2}');
      return putDockerManifest(image, 'v1', dockerManifest('{"two":2}'), DEV, base);
    },
  },
];

/**
 * A build listing `target-local/{folder}/pub.txt` and the excluded `{folder}/secret/s2.txt`
 * as its artifacts, both deployed with its build.name and build.number (docs/builds.md).
 * Its own repository, so the excluded item carries the build's properties, not `keep=1`.
 */
async function built(withSecret = true): Promise<Fixture> {
  const folder = fresh('build-');
  const files = withSecret ? ['pub.txt', 'secret/s2.txt'] : ['pub.txt'];
  for (const file of files) {
    const path = `${folder}/${file}`;
    await deployFile(
      depot,
      'target-local',
      `${path};build.name=${folder};build.number=1`,
      `content ${path}`,
    );
  }
  const uploaded = await call(
    'PUT',
    '/artifactory/api/build',
    ADMIN,
    buildDocument(folder, '1', files),
  );
  expect(uploaded.statusCode, uploaded.body).toBe(204);
  const excluded = {
    repoKey: 'target-local',
    path: `${folder}/secret/s2.txt`,
    content: `content ${folder}/secret/s2.txt`,
  };
  return { repoKey: 'target-local', folder, excluded };
}

function buildDocument(name: string, number: string, files: string[], extra: object = {}) {
  return {
    name,
    number,
    started: `2026-05-0${number}T10:00:00.000+0000`,
    modules: [
      {
        id: name,
        artifacts: files.map((file) => ({ name: file, sha256: sha256(`content ${name}/${file}`) })),
      },
    ],
    ...extra,
  };
}

/** A later build of the same name whose retention keeps only itself, deleting artifacts. */
const retainOnlyNext = (folder: string) =>
  call(
    'PUT',
    '/artifactory/api/build',
    DEV,
    buildDocument(folder, '2', [], { buildRetention: { count: 1, deleteBuildArtifacts: true } }),
  );
const controlled = async (run: (folder: string) => Promise<Answer>) =>
  run((await built(false)).folder);

const CASES: Record<string, Case[]> = {
  'PUT /artifactory/api/build': [
    {
      kind: 'change',
      prepare: () => built(),
      run: (f) => retainOnlyNext(f.folder),
      control: () => controlled(retainOnlyNext),
    },
  ],
  'DELETE /artifactory/api/build/:name': [
    {
      kind: 'change',
      prepare: () => built(),
      run: (f) =>
        call('DELETE', `/artifactory/api/build/${f.folder}?buildNumbers=1&artifacts=1`, DEV),
      control: () =>
        controlled((folder) =>
          call('DELETE', `/artifactory/api/build/${folder}?buildNumbers=1&artifacts=1`, DEV),
        ),
    },
  ],
  'POST /artifactory/api/build/promote/:name/:number': [
    {
      kind: 'change',
      prepare: () => built(),
      run: (f) =>
        call('POST', `/artifactory/api/build/promote/${f.folder}/1`, DEV, {
          status: 'Released',
          targetRepo: 'pub-local',
          sourceRepo: 'target-local',
          copy: false,
        }),
      control: () =>
        controlled((folder) =>
          call('POST', `/artifactory/api/build/promote/${folder}/1`, DEV, {
            status: 'Released',
            targetRepo: 'pub-local',
            sourceRepo: 'target-local',
            copy: false,
          }),
        ),
    },
  ],
  'POST /ui/api/v1/ui/builds/promote/:name/:number': [
    {
      kind: 'change',
      prepare: () => built(),
      run: (f) =>
        call('POST', `/ui/api/v1/ui/builds/promote/${f.folder}/1`, DEV, {
          status: 'Released',
          targetRepo: 'pub-local',
          sourceRepo: 'target-local',
          copy: false,
        }),
      control: () =>
        controlled((folder) =>
          call('POST', `/ui/api/v1/ui/builds/promote/${folder}/1`, DEV, {
            status: 'Released',
            targetRepo: 'pub-local',
            sourceRepo: 'target-local',
            copy: false,
          }),
        ),
    },
  ],
  'POST /artifactory/api/build/patternArtifacts': [
    {
      kind: 'read',
      prepare: () => built(),
      run: (f) =>
        call('POST', '/artifactory/api/build/patternArtifacts', DEV, [
          { buildName: f.folder, buildNumber: '1', artifactPattern: 'target-local:**' },
        ]),
      names: async (answer, f) => {
        const paths = (
          json(answer) as unknown as { patternResults: { path: string }[] }[]
        )[0]!.patternResults.map((r) => r.path);
        return {
          has: paths.includes(`${f.folder}/pub.txt`),
          lacks: !paths.includes(f.excluded.path),
        };
      },
    },
  ],
  'DELETE /v2/*': [dockerCases('/v2/docker-local')[0]],
  'PUT /v2/*': [dockerCases('/v2/docker-local')[1]],
  'DELETE /artifactory/api/docker/:repoKey/v2/*': [
    dockerCases('/artifactory/api/docker/docker-local/v2')[0],
  ],
  'PUT /artifactory/api/docker/:repoKey/v2/*': [
    dockerCases('/artifactory/api/docker/docker-local/v2')[1],
  ],
  'POST /artifactory/api/docker/:repoKey/v2/promote': [
    {
      kind: 'change',
      prepare: () => dockerTagged(),
      run: (f) =>
        call('POST', '/artifactory/api/docker/docker-local/v2/promote', DEV, {
          targetRepo: 'docker-prod',
          dockerRepository: f.folder.replace('/v1', ''),
          tag: 'v1',
        }),
      control: async () =>
        call('POST', '/artifactory/api/docker/docker-local/v2/promote', DEV, {
          targetRepo: 'docker-prod',
          dockerRepository: await cleanDockerTag(),
          tag: 'v1',
        }),
    },
  ],
  'DELETE /artifactory/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) => call('DELETE', `/artifactory/pub-local/${f.folder}`, DEV),
      control: async () => call('DELETE', `/artifactory/pub-local/${await clean()}`, DEV),
    },
  ],
  'DELETE /artifactory/:repoKey': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: () => call('DELETE', '/artifactory/pub-local', DEV),
      refusal: 400,
      noControl: 'a repository is never deleted through this URL: always a 400',
    },
  ],
  'PUT /artifactory/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        bundle(f.folder, DEV, [
          ['pub.txt', 'replaced'],
          ['secret/s2.txt', 'overwritten'],
        ]),
      namesOwnPath: 'the archive names the entry: the refusal names the path it was refused',
      control: async () => bundle(await clean(), DEV, [['pub.txt', 'replaced']]),
    },
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        call('PUT', `/artifactory/pub-local/${f.folder}/copy.txt`, DEV, '', {
          'x-checksum-deploy': 'true',
          'x-checksum-sha256': sha256(f.excluded.content),
        }),
      refusal: 404,
      control: async () => {
        const folder = await clean();
        return call('PUT', `/artifactory/pub-local/${folder}/copy.txt`, DEV, '', {
          'x-checksum-deploy': 'true',
          'x-checksum-sha256': sha256(`pub ${folder}`),
        });
      },
    },
  ],
  'PUT /artifactory/:repoKey': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        call('PUT', '/artifactory/pub-local', DEV, '', {
          'x-checksum-deploy': 'true',
          'x-checksum-sha256': sha256(f.excluded.content),
        }),
      refusal: 400,
      noControl: 'a file needs a path: a deploy to the root is always a 400',
    },
  ],
  'PUT /artifactory/api/storage/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) => call('PUT', `/artifactory/api/storage/pub-local/${f.folder}?properties=c=1`, DEV),
      control: async () =>
        call('PUT', `/artifactory/api/storage/pub-local/${await clean()}?properties=c=1`, DEV),
    },
  ],
  'PATCH /artifactory/api/metadata/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        call('PATCH', `/artifactory/api/metadata/pub-local/${f.folder}`, DEV, {
          props: { c: '1' },
        }),
      control: async () =>
        call('PATCH', `/artifactory/api/metadata/pub-local/${await clean()}`, DEV, {
          props: { c: '1' },
        }),
    },
  ],
  'PUT /artifactory/api/storage/:repoKey': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: () => call('PUT', '/artifactory/api/storage/pub-local?properties=c=1', DEV),
      control: async () =>
        call('PUT', `/artifactory/api/storage/${await cleanRepository()}?properties=c=1`, DEV),
    },
  ],
  'DELETE /artifactory/api/storage/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        call('DELETE', `/artifactory/api/storage/pub-local/${f.folder}?properties=keep`, DEV),
      control: async () =>
        call('DELETE', `/artifactory/api/storage/pub-local/${await clean()}?properties=keep`, DEV),
    },
  ],
  'DELETE /artifactory/api/storage/:repoKey': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: () => call('DELETE', '/artifactory/api/storage/pub-local?properties=keep', DEV),
      control: async () =>
        call('DELETE', `/artifactory/api/storage/${await cleanRepository()}?properties=keep`, DEV),
    },
  ],
  ...Object.fromEntries(
    ['copy', 'move'].flatMap((kind) => [
      [
        `POST /artifactory/api/${kind}/:repoKey/*`,
        [
          {
            kind: 'change',
            prepare: () => generic(),
            run: (f: Fixture) =>
              copyTo(kind, `pub-local/${f.folder}`, `target-local/${fresh(kind)}`, DEV),
            control: async () =>
              copyTo(kind, `pub-local/${await clean()}`, `target-local/${fresh(kind)}`, DEV),
          },
        ],
      ],
      [
        `POST /artifactory/api/${kind}/:repoKey`,
        [
          {
            kind: 'change',
            prepare: () => generic(),
            run: () => copyTo(kind, 'pub-local', `target-local/${fresh(kind)}/`, DEV),
            control: async () =>
              copyTo(kind, await cleanRepository(), `target-local/${fresh(kind)}/`, DEV),
          },
        ],
      ],
      [
        `POST /ui/api/v1/ui/artifactactions/${kind}`,
        [
          {
            kind: 'change',
            prepare: () => generic(),
            run: (f: Fixture) => consoleTransfer(kind, 'pub-local', f.folder, DEV),
            control: async () => consoleTransfer(kind, 'pub-local', await clean(), DEV),
          },
        ],
      ],
    ]),
  ),
  'POST /ui/api/v1/ui/artifactactions/delete': [false, true].map((permDelete): Case => ({
    kind: 'change',
    prepare: () => generic(),
    run: (f) =>
      call('POST', '/ui/api/v1/ui/artifactactions/delete', DEV, {
        repoKey: 'pub-local',
        path: f.folder,
        permDelete,
      }),
    control: async () =>
      call('POST', '/ui/api/v1/ui/artifactactions/delete', DEV, {
        repoKey: 'pub-local',
        path: await clean(),
        permDelete,
      }),
  })),
  'POST /ui/api/v1/ui/artifactsearch/deleteArtifact': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        call('POST', '/ui/api/v1/ui/artifactsearch/deleteArtifact', DEV, {
          artifacts: [{ repoKey: 'pub-local', path: f.folder }],
        }),
      control: async () =>
        call('POST', '/ui/api/v1/ui/artifactsearch/deleteArtifact', DEV, {
          artifacts: [{ repoKey: 'pub-local', path: await clean() }],
        }),
    },
  ],
  'POST /ui/api/v1/ui/artifactproperties': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        properties('artifactproperties', 'pub-local', f.folder, DEV, { name: 'c', value: ['1'] }),
      control: async () =>
        properties('artifactproperties', 'pub-local', await clean(), DEV, {
          name: 'c',
          value: ['1'],
        }),
    },
  ],
  'POST /ui/api/v1/ui/deleteproperties': [
    {
      kind: 'change',
      prepare: () => generic(),
      run: (f) =>
        properties('deleteproperties', 'pub-local', f.folder, DEV, { properties: ['keep'] }),
      control: async () =>
        properties('deleteproperties', 'pub-local', await clean(), DEV, { properties: ['keep'] }),
    },
  ],
  'POST /ui/api/v1/ui/artifactactions/deleteversions': [
    {
      kind: 'change',
      prepare: () => maven(),
      run: (f) =>
        call('POST', '/ui/api/v1/ui/artifactactions/deleteversions', DEV, {
          repoKey: 'mvn-local',
          path: f.folder,
          versions: [{ groupId: f.folder, version: '1.0' }],
        }),
      control: async () => {
        const group = fresh('grp');
        await deployFile(depot, 'mvn-local', `${group}/lib/1.0/lib-1.0.jar`, 'jar');
        return call('POST', '/ui/api/v1/ui/artifactactions/deleteversions', DEV, {
          repoKey: 'mvn-local',
          path: group,
          versions: [{ groupId: group, version: '1.0' }],
        });
      },
    },
    {
      // A version known from excluded files only is no version at all to dev.
      kind: 'change',
      prepare: () => maven(),
      run: (f) =>
        call('POST', '/ui/api/v1/ui/artifactactions/deleteversions', DEV, {
          repoKey: 'mvn-local',
          path: f.folder,
          versions: [{ groupId: `${f.folder}.secret`, version: '3.0' }],
        }),
      refusal: 404,
      noControl: 'the case above runs the same call where nothing is excluded',
    },
  ],
  'GET /ui/api/v1/ui/artifactactions/deleteversions': [
    {
      kind: 'read',
      prepare: () => maven(),
      run: (f) =>
        call(
          'GET',
          `/ui/api/v1/ui/artifactactions/deleteversions?repoKey=mvn-local&path=${f.folder}`,
          DEV,
        ),
      names: versionsOf,
    },
  ],
  'HEAD /ui/api/v1/ui/artifactactions/deleteversions': [
    {
      kind: 'read',
      prepare: () => maven(),
      run: (f) =>
        call(
          'HEAD',
          `/ui/api/v1/ui/artifactactions/deleteversions?repoKey=mvn-local&path=${f.folder}`,
          DEV,
        ),
    },
  ],
  'PUT /artifactory/api/npm/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => npmPackage(fresh('secret-pkg-')),
      run: async (f) => npmRev('PUT', f.folder, DEV, await withoutFirstVersion(f.folder)),
      control: async () => {
        const { folder } = await npmPackage(fresh('open-pkg-'));
        return npmRev('PUT', folder, DEV, await withoutFirstVersion(folder));
      },
    },
  ],
  'DELETE /artifactory/api/npm/:repoKey/*': [
    {
      kind: 'change',
      prepare: () => npmPackage(fresh('secret-pkg-')),
      run: (f) => npmRev('DELETE', f.folder, DEV),
      control: async () => npmRev('DELETE', (await npmPackage(fresh('open-pkg-'))).folder, DEV),
    },
  ],
  // Administrators' housekeeping: refused to dev by the route, walked all the same.
  'POST /artifactory/api/trash/restore/*': [
    {
      kind: 'change',
      prepare: trashed,
      run: (f) => call('POST', `/artifactory/api/trash/restore/pub-local/${f.folder}`, DEV),
      keptAt: trashItem,
      control: async () => {
        const { folder } = await trashed();
        return call('POST', `/artifactory/api/trash/restore/pub-local/${folder}`, ADMIN);
      },
    },
  ],
  'POST /ui/api/v1/ui/artifactactions/restore': [
    {
      kind: 'change',
      prepare: trashed,
      run: (f) =>
        call('POST', '/ui/api/v1/ui/artifactactions/restore', DEV, {
          repoKey: 'auto-trashcan',
          path: `pub-local/${f.folder}`,
        }),
      keptAt: trashItem,
      control: async () => {
        const { folder } = await trashed();
        return call('POST', '/ui/api/v1/ui/artifactactions/restore', ADMIN, {
          repoKey: 'auto-trashcan',
          path: `pub-local/${folder}`,
        });
      },
    },
  ],
  'DELETE /artifactory/api/trash/clean/*': [
    {
      kind: 'change',
      prepare: trashed,
      run: (f) => call('DELETE', `/artifactory/api/trash/clean/pub-local/${f.folder}`, DEV),
      keptAt: trashItem,
      control: async () => {
        const { folder } = await trashed();
        return call('DELETE', `/artifactory/api/trash/clean/pub-local/${folder}`, ADMIN);
      },
    },
  ],
  'POST /artifactory/api/trash/empty': [
    {
      kind: 'change',
      prepare: trashed,
      run: () => call('POST', '/artifactory/api/trash/empty', DEV),
      keptAt: trashItem,
      noControl: "emptying the trash as an administrator would take the other cases' items",
    },
  ],
  'POST /ui/api/v1/ui/artifactactions/emptytrash': [
    {
      kind: 'change',
      prepare: trashed,
      run: () => call('POST', '/ui/api/v1/ui/artifactactions/emptytrash', DEV),
      keptAt: trashItem,
      noControl: "emptying the trash as an administrator would take the other cases' items",
    },
  ],
  ...Object.fromEntries(
    (['zap', 'zapVirtual'] as const).map((action) => [
      `POST /ui/api/v1/ui/artifactactions/${action}`,
      [
        {
          kind: 'change',
          prepare: cached,
          run: (f: Fixture) =>
            call('POST', `/ui/api/v1/ui/artifactactions/${action}`, DEV, {
              repoKey: action === 'zap' ? 'up-remote' : 'up-virtual',
              path: f.folder,
            }),
          control: async () =>
            call('POST', `/ui/api/v1/ui/artifactactions/${action}`, ADMIN, {
              repoKey: action === 'zap' ? 'up-remote' : 'up-virtual',
              path: (await cached()).folder,
            }),
        },
      ],
    ]),
  ),
  'POST /ui/api/v1/ui/artifactactions/calculateIndex': [
    {
      kind: 'change',
      prepare: () => npmPackage(fresh('secret-pkg-')),
      run: () =>
        call('POST', '/ui/api/v1/ui/artifactactions/calculateIndex', DEV, { repoKey: 'npm-local' }),
      control: async () =>
        call('POST', '/ui/api/v1/ui/artifactactions/calculateIndex', ADMIN, {
          repoKey: 'npm-local',
        }),
    },
  ],
  // Reads of many items: what dev may not read is left out, silently.
  'GET /artifactory/api/archive/download/:repoKey/*': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: (f) => call('GET', `/artifactory/api/archive/download/pub-local/${f.folder}`, DEV),
      names: archiveNames,
    },
  ],
  'GET /artifactory/api/archive/download/:repoKey': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: () => call('GET', '/artifactory/api/archive/download/pub-local', DEV),
      names: archiveNames,
    },
  ],
  'GET /ui/api/v1/ui/artifactactions/downloadfolder': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: (f) =>
        call(
          'GET',
          `/ui/api/v1/ui/artifactactions/downloadfolder?repoKey=pub-local&path=${f.folder}`,
          DEV,
        ),
      names: archiveNames,
    },
  ],
  'POST /ui/api/v1/ui/artifactactions/downloadfolder': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: (f) =>
        call('POST', '/ui/api/v1/ui/artifactactions/downloadfolder', DEV, {
          repoKey: 'pub-local',
          path: f.folder,
        }),
      names: archiveNames,
    },
  ],
  'HEAD /ui/api/v1/ui/artifactactions/downloadfolder': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: (f) =>
        call(
          'HEAD',
          `/ui/api/v1/ui/artifactactions/downloadfolder?repoKey=pub-local&path=${f.folder}`,
          DEV,
        ),
    },
  ],
  'GET /ui/api/v1/ui/artifactactions/downloadfolderinfo': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: (f) =>
        call(
          'GET',
          `/ui/api/v1/ui/artifactactions/downloadfolderinfo?repoKey=pub-local&path=${f.folder}`,
          DEV,
        ),
      // Two files lie below the folder; dev may read one of them.
      names: async (answer) => {
        const { totalFiles } = json(answer);
        return { has: totalFiles !== 0, lacks: totalFiles === 1 };
      },
    },
  ],
  'POST /ui/api/v1/ui/artifactgeneral/artifactsCount': [
    {
      kind: 'read',
      prepare: () => generic(),
      run: (f) =>
        call('POST', '/ui/api/v1/ui/artifactgeneral/artifactsCount', DEV, {
          repoKey: 'pub-local',
          path: f.folder,
        }),
      names: async (answer, f) => {
        const count = json(answer);
        return {
          has: count.artifactsCount === 1,
          lacks: count.artifactSize === Buffer.byteLength(`pub ${f.folder}`),
        };
      },
    },
  ],
};

/**
 * Mutating routes that act on the one item they name, or on none: each with why. A new
 * mutating route must be listed here or declare `reach: 'many'` and have a case above.
 */
const ONE_ITEM_OR_NONE: Record<string, string[]> = {
  "Docker blob uploads: an upload's own bytes, or one blob file in the image's _uploads folder": [
    'POST /v2/*',
    'PATCH /v2/*',
    'POST /artifactory/api/docker/:repoKey/v2/*',
    'PATCH /artifactory/api/docker/:repoKey/v2/*',
  ],
  'users, groups, permission targets, projects, tokens, API keys and sign-in: no artifact': [
    // Docker's OAuth2 token requests mint a registry token (docs/docker.md).
    'POST /v2/token',
    'POST /artifactory/api/docker/:repoKey/v2/token',
    'PUT /artifactory/api/security/users/:name',
    'POST /artifactory/api/security/users/:name',
    'DELETE /artifactory/api/security/users/:name',
    'PUT /artifactory/api/security/groups/:name',
    'POST /artifactory/api/security/groups/:name',
    'DELETE /artifactory/api/security/groups/:name',
    'POST /artifactory/api/v2/security/permissions/:name',
    'PUT /artifactory/api/v2/security/permissions/:name',
    'DELETE /artifactory/api/v2/security/permissions/:name',
    'POST /access/api/v1/tokens',
    'DELETE /access/api/v1/tokens/:id',
    'POST /ui/api/v1/ui/userApiKey',
    'PUT /ui/api/v1/ui/userApiKey',
    'DELETE /ui/api/v1/ui/userApiKey',
    'POST /artifactory/api/security/apiKey',
    'PUT /artifactory/api/security/apiKey',
    'DELETE /artifactory/api/security/apiKey',
    'DELETE /ui/api/v1/ui/userApiKey/:user',
    'DELETE /ui/api/v1/ui/deleteApiKeyForUser/:user',
    'POST /access/api/v1/projects',
    'PUT /access/api/v1/projects/:key',
    'DELETE /access/api/v1/projects/:key',
    'PUT /access/api/v1/projects/:key/users/:name',
    'DELETE /access/api/v1/projects/:key/users/:name',
    'PUT /access/api/v1/projects/:key/groups/:name',
    'DELETE /access/api/v1/projects/:key/groups/:name',
    'POST /access/api/v1/projects/:key/roles',
    'PUT /access/api/v1/projects/:key/roles/:name',
    'DELETE /access/api/v1/projects/:key/roles/:name',
    'PUT /access/api/v1/projects/_/attach/repositories/:repo/:key',
    'DELETE /access/api/v1/projects/_/attach/repositories/:repo',
    'PUT /access/api/v1/projects/_/share/repositories/:repo/:target',
    'DELETE /access/api/v1/projects/_/share/repositories/:repo/:target',
    'POST /artifactory/api/npm/:repoKey/-/v1/login',
    'POST /artifactory/api/security/token',
    'POST /artifactory/api/security/token/revoke',
    'POST /artifactory/api/npm/:repoKey/-/npm/v1/tokens',
    'DELETE /artifactory/api/npm/:repoKey/-/npm/v1/tokens/token/:key',
    'POST /artifactory/api/npm/:repoKey/-/team/*',
    'PUT /artifactory/api/npm/:repoKey/-/team/*',
    'DELETE /artifactory/api/npm/:repoKey/-/team/*',
    'POST /artifactory/api/system/usage',
    'PUT /artifactory/api/npm/:repoKey/-/user/:couchUser',
    'DELETE /artifactory/api/npm/:repoKey/-/user/token/:token',
    'POST /ui/api/v1/ui/auth/login',
    'POST /ui/api/v1/ui/auth/logout',
    'POST /ui/api/v1/ui/auth/changePassword',
    'POST /ui/api/v1/auth/mfa/enroll',
    'POST /ui/api/v1/auth/mfa/verify',
    'POST /ui/api/v1/auth/mfa/remove',
    'POST /ui/api/v1/auth/mfa/resetMfaStatus/:name',
    'POST /ui/api/v1/ui/users',
    'PUT /ui/api/v1/ui/users/:name',
    'POST /ui/api/v1/ui/users/userDelete',
    'POST /ui/api/v1/ui/users/:name/expirePassword',
    'POST /ui/api/v1/ui/users/:name/unexpirePassword',
    'POST /ui/api/v1/ui/securityconfig/unlockUsers',
    'POST /ui/api/v1/access/entities/users/unlockUsers',
    'PUT /ui/api/v1/ui/userProfile',
    'POST /ui/api/v1/ui/auth/forgotpassword',
    'POST /ui/api/v1/ui/auth/resetpassword',
    'POST /ui/api/v1/access/entities/users/invite',
    'POST /ui/api/v1/access/entities/users/invited/reInvite',
    'POST /ui/api/v1/access/token/verify',
    'POST /ui/api/v1/access/entities/users/invited/setPassword',
    'POST /ui/api/v1/ui/groups',
    'PUT /ui/api/v1/ui/groups/:name',
    'POST /ui/api/v1/ui/groups/delete',
    'POST /ui/api/v1/access/permissions/search',
    'POST /ui/api/v1/access/permissions',
    'PUT /ui/api/v1/access/permissions/:name',
    'POST /ui/api/v1/access/permissions/delete',
    'POST /ui/api/v1/npm/login/:loginId/approve',
    'POST /ui/api/v1/npm/login/:loginId/deny',
    'POST /ui/api/v1/ui/setMeUp/unlock',
  ],
  'settings and configuration: no artifact': [
    'DELETE /ui/api/v1/ui/retention/archive/policies/:key',
    'PUT /ui/api/v1/ui/trashcan',
    'POST /ui/api/v1/ui/mail/test',
    'PUT /ui/api/v1/ui/maintenance',
    'PUT /ui/api/v1/system/onboarding',
    // An admin's answers to the personalisation wizard.
    'PUT /ui/api/v1/ui/onboarding',
    'POST /ui/api/v1/ui/admin/repositories/testremote',
    // Configuration as code deletes only empty repositories (docs/config-as-code.md).
    'PATCH /artifactory/api/system/configuration',
    'PUT /ui/api/v1/ui/configdescriptor',
  ],
  'license buckets: no artifact; a parent deleted with its own splits is one bucket (docs/license-buckets.md)':
    [
      'POST /mc/api/v1/buckets',
      'DELETE /mc/api/v1/buckets/:id',
      'POST /mc/api/v1/buckets/:id/split',
      'POST /mc/api/v1/buckets/:id/attach',
      'POST /mc/api/v1/buckets/:id/detach',
    ],
  'cluster nodes: one row of the nodes table, no artifact (docs/service-status.md)': [
    'DELETE /access/api/v1/topology/:service_id/:node_id',
  ],
  'support bundles: diagnostics of the instance kept beside it, no artifact (docs/support-bundles.md)':
    [
      'POST /ui/api/v1/ui/userSupport/generateBundle',
      'POST /artifactory/api/system/support/bundle',
      'DELETE /ui/api/v1/ui/userSupport/deleteBundle/:id',
    ],
  'webhooks: subscriptions and their deliveries are configuration, no artifact (docs/webhooks.md)':
    [
      'POST /event/api/v1/subscriptions',
      'PUT /event/api/v1/subscriptions/:key',
      'DELETE /event/api/v1/subscriptions/:key',
      'POST /event/api/v1/subscriptions/test',
      'POST /ui/api/v1/ui/webhooks/test',
      'POST /ui/api/v1/ui/webhooks/:key/deliveries/:deliveryId/redeliver',
      'POST /ui/api/v1/ui/webhooks/:key/resume',
    ],
  'a repository as a whole, decided by who manages repositories (docs/projects.md), not by item grants':
    [
      'PUT /artifactory/api/repositories/:key',
      'POST /artifactory/api/repositories/:key',
      'DELETE /artifactory/api/repositories/:key',
      'POST /ui/api/v1/ui/admin/repositories',
      'PUT /ui/api/v1/ui/admin/repositories',
      'DELETE /ui/api/v1/ui/admin/repositories/:type/:key',
      'POST /ui/api/v1/ui/onboarding/createDefaultRepos',
    ],
  "administrators' jobs over the whole instance by policy, not over a caller's grant": [
    'POST /ui/api/v1/ui/maintenance/garbageCollection',
    'POST /ui/api/v1/ui/maintenance/cleanUnusedCache',
    'POST /ui/api/v1/ui/maintenance/cleanVirtualRepo',
    'POST /ui/api/v1/ui/maintenance/compress',
    'POST /ui/api/v1/ui/maintenance/prune',
    'POST /ui/api/v1/ui/backup/:key/runnow',
    'POST /ui/api/v1/ui/backup/:key/restore',
    'POST /artifactory/api/export/system',
    'POST /artifactory/api/import/system',
    'POST /artifactory/api/export/repositories',
    'POST /artifactory/api/import/repositories',
    'POST /ui/api/v1/ui/retention/archive/policies/preview',
    'POST /ui/api/v1/ui/retention/archive/policies/convertToAql',
    'POST /ui/api/v1/ui/retention/archive/policies/:key/trigger',
    'POST /ui/api/v1/ui/retention/archive/policies/:key/stop',
    'POST /ui/api/v1/ui/retention/archive/policies/:key/undo',
    'POST /ui/api/v1/ui/retention/restore',
    'POST /ui/api/v1/ui/retention/search',
  ],
  'builds: lookups, searches, renames and console deletes of build-info files, judged by build permissions; no stored artifact':
    [
      'POST /artifactory/api/build/rename/:name',
      'POST /ui/api/v1/ui/builds/buildsDelete',
      'POST /ui/api/v1/ui/builds/deleteAllBuilds',
      'POST /ui/api/v1/global-search/builds',
      'POST /ui/api/v1/global-search/builds/:buildName',
      'POST /ui/api/v1/ui/permissiontargets/buildPatterns',
    ],
  'one item: the file or package document the request names': [
    'POST /artifactory/api/pypi/:repoKey',
    'PUT /artifactory/api/npm/:repoKey/-/package/*',
    'POST /artifactory/api/npm/:repoKey/-/package/*',
    'DELETE /artifactory/api/npm/:repoKey/-/package/*',
    'POST /ui/api/v1/ui/checksums/fix',
    'POST /ui/api/v1/ui/artifactwatches',
    'POST /ui/api/v1/ui/artifactwatches/remove',
    'POST /ui/api/v1/ui/archiveViewSource',
    'POST /ui/api/v1/ui/views',
    'POST /ui/api/v1/ui/views/dockerv2',
    'POST /ui/api/v1/ui/artifactactions/view',
    'POST /ui/api/v1/ui/artifactgeneral',
    'POST /ui/api/v1/ui/treebrowser/tabsAndActions',
  ],
  'reads whose rows are each filtered by the decider before paging (search, tree, packages, settings)':
    [
      'POST /artifactory/api/search/aql',
      'POST /artifactory/api/npm/:repoKey/-/npm/v1/security/advisories/bulk',
      'POST /artifactory/api/npm/:repoKey/-/npm/v1/security/audits',
      'POST /artifactory/api/npm/:repoKey/-/npm/v1/security/audits/quick',
      'POST /ui/api/v1/ui/treebrowser',
      'POST /ui/api/v1/mds/packages',
      'POST /ui/api/v1/mds/package',
      'POST /ui/api/v1/mds/versions',
      'POST /ui/api/v1/ui/mavenSettings',
      'POST /ui/api/v1/ui/gradleSettings',
      'POST /ui/api/v1/ui/ivySettings',
      'POST /ui/api/v1/ui/artifactsearch/quick',
      'POST /ui/api/v1/ui/artifactsearch/checksum',
      'POST /ui/api/v1/ui/artifactsearch/trash',
      'POST /ui/api/v1/ui/artifactsearch/property',
      'POST /ui/api/v1/ui/artifactsearch/gavc',
      'POST /ui/api/v1/ui/artifactsearch/class',
      'POST /ui/api/v1/ui/artifactsearch/remote',
      'POST /ui/api/v1/ui/artifactsearch/pkg',
    ],
};

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

beforeAll(async () => {
  depot = await startTestDepot();
  for (const key of ['pub-local', 'target-local']) await createRepository(depot, key, 'local');
  await createMavenRepository(depot, 'mvn-local', 'local');
  await createRepository(depot, 'npm-local', 'local', { packageType: 'npm' });
  for (const key of ['docker-local', 'docker-prod'])
    await createRepository(depot, key, 'local', { packageType: 'docker' });
  await createRepository(depot, 'up-remote', 'remote', { url: 'http://127.0.0.1:9/' });
  await createRepository(depot, 'up-virtual', 'virtual', { repositories: ['up-remote'] });
  await devWithOnlyGrant(depot, {
    repositories: ['ANY'],
    include: ['**'],
    exclude: ['**/secret/**', '**/secret-pkg-*/**'],
    actions: ['read', 'annotate', 'write', 'delete'],
  });
  // Builds: dev may do everything with every build; what a build lists is judged by the above.
  const builds = await call('PUT', '/artifactory/api/v2/security/permissions/dev-builds', ADMIN, {
    build: {
      repositories: ['artifactory-build-info'],
      'include-patterns': ['**'],
      'exclude-patterns': [],
      actions: { users: { dev: ['manage'] }, groups: {} },
    },
  });
  expect(builds.statusCode, builds.body).toBeLessThan(300);
});
afterAll(() => depot?.close());

describe('routes that act on many items', () => {
  it('each has a case here, and each case names such a route', () => {
    const many = depot.app.routeCatalog.filter((route) => route.reach === 'many').map(routeKey);
    expect(many.length).toBeGreaterThan(20);
    expect([...new Set(many)].sort()).toEqual(Object.keys(CASES).sort());
  });

  it('every other mutating route is listed with why it touches one item at most', () => {
    // The schema engine's routes, learned from the descriptors: a stored entity's documents
    // are configuration, never artifacts.
    const engine = depot.app.routeCatalog.filter((route) => route.entity).map(routeKey);
    const listed = new Set([...Object.values(ONE_ITEM_OR_NONE).flat(), ...engine]);
    const unclassified = depot.app.routeCatalog
      .filter((route) => !SAFE.has(route.method) && route.reach !== 'many')
      .map(routeKey)
      .filter((key) => !listed.has(key));
    // Declare `config: { reach: 'many' }` with a case above, or list the route with a reason.
    expect(unclassified).toEqual([]);
    const stale = [...listed].filter(
      (key) => !depot.app.routeCatalog.some((route) => routeKey(route) === key && !route.reach),
    );
    expect(stale).toEqual([]);
  });
});

describe('as a caller whose grant excludes one item below the target', () => {
  for (const [route, cases] of Object.entries(CASES)) {
    cases.forEach((scenario, index) => {
      const name = `${route}${cases.length > 1 ? ` (${index + 1})` : ''}`;
      if (scenario.kind === 'change') {
        it(`${name}: refuses the whole change and leaves the excluded item as it was`, async () => {
          const fixture = await scenario.prepare();
          const before = await snapshot();
          const answer = await scenario.run(fixture);
          expect(answer.statusCode, answer.body).toBe(scenario.refusal ?? 403);
          // The refusal names what the request named, never the excluded item.
          if (!scenario.namesOwnPath) expect(answer.body).not.toContain(fixture.excluded.path);
          expect(await snapshot()).toEqual(before);
          const kept = scenario.keptAt?.(fixture) ?? fixture.excluded;
          await expectIntact(fixture.excluded, kept);
          if (!scenario.keptAt) expect(await inTrash(fixture.excluded)).toBe(false);
          if (scenario.control) {
            const allowed = await scenario.control();
            expect(allowed.statusCode, allowed.body).toBeLessThan(300);
          } else {
            expect(scenario.noControl).toBeTruthy();
          }
        });
      } else {
        it(`${name}: leaves the excluded item out of what it reads`, async () => {
          const fixture = await scenario.prepare();
          const before = await snapshot();
          const answer = await scenario.run(fixture);
          expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
          if (scenario.names) {
            expect(await scenario.names(answer, fixture)).toEqual({ has: true, lacks: true });
          } else {
            // A HEAD: checks only, and tells nothing in a body.
            expect(answer.body).toBe('');
          }
          expect(await snapshot()).toEqual(before);
        });
      }
    });
  }
});
