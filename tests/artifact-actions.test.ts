import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_MESSAGES } from '../server/modules/artifact-actions/messages.ts';
import { TRASH_REPO_KEY } from '../server/modules/trash/service.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
let session: Awaited<ReturnType<typeof consoleSession>>;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.repositories.create({ key: 'src', rclass: 'local', packageType: 'generic' });
  await depot.services.repositories.create({ key: 'dst', rclass: 'local', packageType: 'generic' });
  await depot.services.users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
  for (const path of [
    'app/1.0/app.jar',
    'app/1.0/app.pom',
    'lib/lib.jar',
    'gone/g.txt',
    'old/o.txt',
    'keep/k.txt',
  ]) {
    const response = await depot.app.inject({
      method: 'PUT',
      url: `/artifactory/src/${path}`,
      headers: adminAuth(),
      payload: `content of ${path}`,
    });
    expect(response.statusCode).toBe(201);
  }
  session = await consoleSession(depot, 'admin', 'admin-secret-1');
});
afterAll(() => depot?.close());

/** A console call: session cookie and CSRF header, as the console sends them. */
const action = (name: string, payload: object = {}, headers: object = session.headers) =>
  depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/artifactactions/${name}`,
    headers: headers as Record<string, string>,
    payload,
  });
const content = async (path: string) => {
  const response = await depot.app.inject({ url: `/artifactory/${path}`, headers: adminAuth() });
  return response.statusCode === 200 ? response.body : response.statusCode;
};

describe('copy and move', () => {
  it('reports a copy dry run and writes nothing', async () => {
    const response = await action('copy', {
      repoKey: 'src',
      path: 'app/1.0',
      targetRepoKey: 'dst',
      targetPath: 'releases/1.0',
      dryRun: true,
      suppressLayouts: false,
      failFast: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      info: 'copying src:app/1.0 to dst:releases/1.0 dry run completed successfully, 2 artifacts and 1 folders would be copied',
    });
    expect(await content('dst/releases/1.0/app.jar')).toBe(404);
  });

  it('copies a folder to a new path', async () => {
    const response = await action('copy', {
      repoKey: 'src',
      path: 'app/1.0',
      targetRepoKey: 'dst',
      targetPath: 'releases/1.0',
      dryRun: false,
    });
    expect(response.json()).toEqual({
      info: 'copying src:app/1.0 to dst:releases/1.0 completed successfully, 2 artifacts and 1 folders were copied',
    });
    expect(await content('dst/releases/1.0/app.jar')).toBe('content of app/1.0/app.jar');
    expect(await content('src/app/1.0/app.jar')).toBe('content of app/1.0/app.jar');
  });

  it('moves into a folder under the item’s own name, and dry-runs a move', async () => {
    const dry = await action('move', {
      repoKey: 'src',
      path: 'lib',
      targetRepoKey: 'dst',
      targetPath: 'vendor/',
      dryRun: true,
    });
    expect(dry.json().info).toBe(
      'moving src:lib to dst:vendor/lib dry run completed successfully, 1 artifacts and 1 folders would be moved',
    );
    expect(await content('src/lib/lib.jar')).toBe('content of lib/lib.jar');
    const moved = await action('move', {
      repoKey: 'src',
      path: 'lib',
      targetRepoKey: 'dst',
      targetPath: 'vendor/',
      dryRun: false,
    });
    expect(moved.statusCode).toBe(200);
    expect(await content('dst/vendor/lib/lib.jar')).toBe('content of lib/lib.jar');
    expect(await content('src/lib/lib.jar')).toBe(404);
  });

  it('answers errors for unknown sources, bad paths and bodies', async () => {
    const cases: [object, number, string | RegExp][] = [
      [{ repoKey: 'src', path: 'nope', targetRepoKey: 'dst' }, 404, "Could not find 'src/nope'"],
      [
        { repoKey: 'src', path: '../etc', targetRepoKey: 'dst' },
        400,
        "The path may not contain '..' segments",
      ],
      [{ repoKey: 'src', path: 'keep', targetRepoKey: 'nowhere' }, 404, /nowhere/],
      [{ repoKey: 'src', path: 'keep' }, 400, 'You must fill in this field'],
      [
        { repoKey: 'src', path: 'keep', targetRepoKey: 'dst', dryRun: 'yes' },
        400,
        /^Please choose true or false$/,
      ],
      [
        { repoKey: 'src', path: 'keep', targetRepoKey: 'dst', extra: 1 },
        400,
        "Unknown field 'extra'",
      ],
    ];
    for (const [payload, status, message] of cases) {
      const response = await action('copy', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().errors[0].message).toMatch(message);
    }
    // The refusal of a wrongly typed field names the field beside the words.
    const typed = await action('copy', {
      repoKey: 'src',
      path: 'keep',
      targetRepoKey: 'dst',
      dryRun: 'yes',
    });
    expect(typed.json().errors[0]).toMatchObject({ field: 'dryRun' });
    expect(await content('src/keep/k.txt')).toBe('content of keep/k.txt');
  });
});

describe('delete, restore and empty trash', () => {
  it('deletes to the trash can, and restores to where it was', async () => {
    const deleted = await action('delete', { repoKey: 'src', path: 'gone', permDelete: false });
    expect(deleted.json()).toEqual({ info: ACTION_MESSAGES.deletedToTrash('src/gone') });
    expect(await content('src/gone/g.txt')).toBe(404);
    expect(await content(`${TRASH_REPO_KEY}/src/gone/g.txt`)).toBe('content of gone/g.txt');

    const dry = await action('restore', {
      repoKey: TRASH_REPO_KEY,
      path: 'src/gone',
      dryRun: true,
    });
    expect(dry.json()).toEqual({
      info: `moving ${TRASH_REPO_KEY}:src/gone to src:gone dry run completed successfully, 1 artifacts and 1 folders would be moved`,
    });
    expect(await content('src/gone/g.txt')).toBe(404);

    const restored = await action('restore', { repoKey: TRASH_REPO_KEY, path: 'src/gone' });
    expect(restored.json()).toEqual({ info: ACTION_MESSAGES.restored('src/gone') });
    expect(await content('src/gone/g.txt')).toBe('content of gone/g.txt');
  });

  it('restores to another place when given a target', async () => {
    await action('delete', { repoKey: 'src', path: 'gone/g.txt', permDelete: false });
    const restored = await action('restore', {
      repoKey: TRASH_REPO_KEY,
      path: 'src/gone/g.txt',
      targetRepoKey: 'dst',
      targetPath: 'recovered/g.txt',
    });
    expect(restored.json()).toEqual({ info: ACTION_MESSAGES.restored('dst/recovered/g.txt') });
    expect(await content('dst/recovered/g.txt')).toBe('content of gone/g.txt');
  });

  it('refuses to restore from anywhere but the trash can', async () => {
    const response = await action('restore', { repoKey: 'src', path: 'keep' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({
      message: ACTION_MESSAGES.notInTrash('src'),
      field: 'repoKey',
    });
  });

  it('deletes for good when asked, leaving nothing in the trash can', async () => {
    const response = await action('delete', { repoKey: 'src', path: 'old', permDelete: true });
    expect(response.json()).toEqual({ info: ACTION_MESSAGES.deletedForGood('src/old') });
    expect(await content('src/old/o.txt')).toBe(404);
    expect(await content(`${TRASH_REPO_KEY}/src/old/o.txt`)).toBe(404);
    const again = await action('delete', { repoKey: 'src', path: 'old', permDelete: true });
    expect(again.statusCode).toBe(404);
  });

  it('empties the trash can', async () => {
    await action('delete', { repoKey: 'dst', path: 'recovered' });
    expect(await content(`${TRASH_REPO_KEY}/dst/recovered/g.txt`)).toBe('content of gone/g.txt');
    const response = await action('emptytrash');
    expect(response.json()).toEqual({ info: ACTION_MESSAGES.trashEmptied });
    expect(await content(`${TRASH_REPO_KEY}/dst/recovered/g.txt`)).toBe(404);
  });
});

describe('who may act', () => {
  it('refuses plain users, anonymous callers and a session without the CSRF header', async () => {
    const payload = { repoKey: 'src', path: 'keep', permDelete: true };
    const plain = await action('delete', payload, {
      authorization: basic('plain', 'plain-pass-1'),
    });
    expect(plain.statusCode).toBe(403);
    expect((await action('delete', payload, {})).statusCode).toBe(401);
    const noCsrf = await action('delete', payload, { cookie: session.headers.cookie });
    expect(noCsrf.statusCode).toBe(403);
    expect(await content('src/keep/k.txt')).toBe('content of keep/k.txt');
  });
});
