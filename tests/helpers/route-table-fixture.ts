import { expect } from 'vitest';
import { craftZip } from './archives.ts';
import { packTarball, publishDocument } from './npm-cli.ts';
import { buildSdist } from './python-dists.ts';
import {
  CALLERS,
  CHANGER_PASSWORD,
  changerOf,
  MADE,
  matrixBuild,
  prepareUpload,
  matrixSubscription,
} from './route-table-requests.ts';
import { addMatrixBuckets } from './matrix-buckets.ts';
import { linkIn, type startSmtpServer } from './smtp.ts';
import { adminAuth, createRepository, deployFile, type TestDepot } from './test-app.ts';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

/** An admin's call that must succeed; answers its JSON. */
async function asAdmin(depot: TestDepot, method: 'POST' | 'PUT', url: string, payload: object) {
  const response = await depot.app.inject({ method, url, headers: adminAuth(), payload });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json();
}

/** The callers, the victim whose things they reach for, and what the victim's things are. */
async function people(depot: TestDepot) {
  const { users, groups, projects } = depot.services;
  const user = (name: string, password: string, groupNames: string[] = []) =>
    users.create({ name, email: `${name}@example.com`, password, groups: groupNames });
  await user('plain', 'plain-pass-1');
  await user('reader', 'reader-pass-1', ['readers']);
  await user('padmin', 'padmin-pass-1');
  await user('victim', 'victim-pass-1');
  await user('resetter', 'resetter-pass-1');
  for (const caller of CALLERS) await user(changerOf(caller), CHANGER_PASSWORD);
  // What the deletes remove, kept for them alone.
  await user('doomed', 'doomed-pass-1');
  await user('doomed-ui', 'doomed-pass-1');
  await groups.create({ name: 'victim-group', usersInGroup: ['victim'] });
  await groups.create({ name: 'doomed-group' });
  await groups.create({ name: 'doomed-group-ui' });
  for (const key of ['mtx', 'othr', 'doomed'])
    await projects.create({ project_key: key, display_name: key });
  await projects.putMember('mtx', 'user', 'padmin', ['Project Admin']);
  await projects.putMember('mtx', 'user', 'victim', ['Viewer']);
  await projects.putMember('mtx', 'group', 'victim-group', ['Viewer']);
}

/** Repositories of every class and the files the requests name. */
async function repositoriesAndFiles(depot: TestDepot) {
  for (const key of ['matrix-local', 'victim-local', 'doomed-local', 'doomed-local2'])
    await createRepository(depot, key, 'local');
  await createRepository(depot, 'matrix-npm', 'local', { packageType: 'npm' });
  await createRepository(depot, 'matrix-pypi', 'local', { packageType: 'pypi' });
  await createRepository(depot, 'matrix-maven', 'local', { packageType: 'maven' });
  await createRepository(depot, 'matrix-docker', 'local', { packageType: 'docker' });
  // Nothing listens on port 9 (discard): the remote is never fetched from, only zapped.
  await createRepository(depot, 'matrix-remote', 'remote', { url: 'http://127.0.0.1:9/' });
  await createRepository(depot, 'matrix-virtual', 'virtual', {
    repositories: ['matrix-local', 'matrix-remote'],
  });
  await deployFile(depot, 'matrix-maven', 'org/acme/lib/1.0/lib-1.0.jar', 'jar');
  await deployFile(
    depot,
    'matrix-maven',
    'org/acme/lib/1.0/lib-1.0.pom',
    '<project><groupId>org.acme</groupId><artifactId>lib</artifactId><version>1.0</version></project>',
  );
  for (const path of ['org/file.txt', 'org/doomed.txt', 'org/doomed-search.txt'])
    await deployFile(depot, 'matrix-local', path, 'content');
  await deployFile(
    depot,
    'matrix-local',
    'org/file.zip',
    craftZip([{ name: 'inside.txt', data: Buffer.from('inside') }]),
  );
  await deployFile(depot, 'victim-local', 'org/file.txt', 'content');
}

/** npm's package (published as the admin), and the next version's publish, for the table. */
async function npmPackage(depot: TestDepot) {
  const tarball = (version: string) =>
    packTarball({ 'package.json': JSON.stringify({ name: 'matrix-pkg', version }) });
  await asAdmin(
    depot,
    'PUT',
    '/artifactory/api/npm/matrix-npm/matrix-pkg',
    publishDocument('matrix-pkg', '1.0.0', await tarball('1.0.0')),
  );
  MADE.npmPublish = publishDocument('matrix-pkg', '1.0.1', await tarball('1.0.1'));
  const login = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/npm/matrix-npm/-/user/org.couchdb.user:admin',
    payload: { name: 'admin', password: 'admin-secret-1', type: 'user' },
  });
  MADE.adminNpmToken = login.json().token;
  MADE.sdist = await buildSdist({ name: 'matrix-py', version: '1.0' });
  await prepareUpload();
}

/**
 * Permission targets, with ones for the deletes; loopback allowed as an upstream, for the
 * remote URL test's server. (The schema engine's documents come from engine-requests.ts.)
 */
async function configuration(depot: TestDepot) {
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  // Two targets granting read on victim-local: one to a user, one (to delete) to a group.
  const readVictimLocal = (name: string, actions: { users: object; groups: object }) =>
    depot.services.access.create({
      name,
      repo: {
        'include-patterns': ['**'],
        'exclude-patterns': [],
        repositories: ['victim-local'],
        actions: actions as never,
      },
    });
  await readVictimLocal('matrix-target', { users: { victim: ['read'] }, groups: {} });
  await readVictimLocal('doomed-target', { users: {}, groups: { 'doomed-group': ['read'] } });
  await readVictimLocal('doomed-target-ui', { users: {}, groups: { 'doomed-group': ['read'] } });
}

/**
 * Builds listing matrix-local/org/file.txt, uploaded by the admin (one for each route that
 * ends one), and build read for the readers group, so the reader sees them and plain does not.
 */
async function builds(depot: TestDepot) {
  for (const name of ['matrix-build', 'matrix-doomed-build', 'matrix-renamed-build']) {
    const url = '/artifactory/api/build';
    const uploaded = await depot.app.inject({
      method: 'PUT',
      url,
      headers: adminAuth(),
      payload: matrixBuild(name),
    });
    expect(uploaded.statusCode, `PUT ${url}: ${uploaded.body}`).toBe(204);
  }
  await depot.services.access.create({
    name: 'matrix-builds',
    build: {
      'include-patterns': ['**'],
      'exclude-patterns': [],
      repositories: ['artifactory-build-info'],
      actions: { users: {}, groups: { readers: ['read'] } },
    },
  });
}

/**
 * Mail to a real SMTP server on loopback, and the keys its mails carry: a password reset for
 * `resetter` and an invitation for `invitee`.
 */
async function mailedKeys(depot: TestDepot, smtp: Smtp) {
  await asAdmin(depot, 'PUT', '/ui/api/v1/ui/mail', {
    enabled: true,
    host: '127.0.0.1',
    port: smtp.port,
    from: 'depot@example.test',
    subjectPrefix: '[Depot]',
    baseUrl: 'https://depot.example.test',
  });
  await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/forgotpassword',
    payload: { user: 'resetter' },
  });
  const reset = (await smtp.waitFor(1))[0]!;
  MADE.resetKey = linkIn(reset.text, '/ui/auth/reset-password').searchParams.get('key')!;
  await asAdmin(depot, 'POST', '/ui/api/v1/access/entities/users/invite', {
    name: 'invitee',
    email: 'invitee@example.test',
  });
  const invitation = (await smtp.waitFor(2))[1]!;
  MADE.invitationToken = linkIn(invitation.text, '/ui/auth/invitation').searchParams.get('token')!;
}

/**
 * Everything the table's requests name, made before the first of them: the callers and their
 * victims, repositories of every class with files, a package of each format, mail and the keys
 * it carries. Answers the id of a token of the admin's, which others try to revoke.
 */
export async function populateMatrix(
  depot: TestDepot,
  smtp: Smtp,
  upstreamUrl: string,
): Promise<string> {
  MADE.upstreamUrl = upstreamUrl;
  await people(depot);
  await repositoriesAndFiles(depot);
  await npmPackage(depot);
  await configuration(depot);
  await builds(depot);
  await mailedKeys(depot, smtp);
  await addMatrixBuckets(depot);
  await asAdmin(depot, 'POST', '/event/api/v1/subscriptions', matrixSubscription('matrix-hook'));
  const token = await asAdmin(depot, 'POST', '/access/api/v1/tokens', {
    description: 'the admin token',
  });
  return token.token_id;
}
