import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({ key: 'src', rclass: 'local', packageType: 'generic' });
  await depot.services.repositories.create({
    key: 'dst',
    rclass: 'local',
    packageType: 'generic',
    excludesPattern: '**/*.secret',
  });
  for (const [path, body] of [
    ['src/app/1.0/app.jar;quality=gold', 'jar bytes'],
    ['src/app/1.0/app.pom', 'pom bytes'],
    ['src/app/1.0/notes.secret', 'secret'],
    ['src/lib/lib.jar', 'lib bytes'],
  ]) {
    expect((await depot.request(`/artifactory/${path}`, { method: 'PUT', body })).status).toBe(201);
  }
});
afterAll(() => depot?.close());

const post = async (path: string) => {
  const response = await depot.request(`/artifactory/api/${path}`, { method: 'POST' });
  return { status: response.status, body: await response.json() };
};
const content = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return response.status === 200 ? response.text() : response.status;
};
const blobCount = () => {
  const root = join(depot.config.home, 'filestore');
  return readdirSync(root)
    .filter((d) => d !== '_tmp')
    .flatMap((a) => readdirSync(join(root, a)).flatMap((b) => readdirSync(join(root, a, b))))
    .length;
};

describe('copy and move', () => {
  it('copies a file to a new path, sharing the blob and keeping properties', async () => {
    const before = blobCount();
    const { status, body } = await post('copy/src/app/1.0/app.jar?to=/dst/releases/app-1.0.jar');
    expect(status).toBe(200);
    expect(body.messages[0]).toEqual({
      level: 'INFO',
      message:
        'copying src:app/1.0/app.jar to dst:releases/app-1.0.jar completed successfully, 1 artifacts and 0 folders were copied',
    });
    expect(await content('dst/releases/app-1.0.jar')).toBe('jar bytes');
    expect(await content('src/app/1.0/app.jar')).toBe('jar bytes');
    expect(blobCount()).toBe(before);
    const props = await (
      await depot.request('/artifactory/api/storage/dst/releases/app-1.0.jar?properties')
    ).json();
    expect(props.properties).toEqual({ quality: ['gold'] });
  });

  it('copies a folder into another folder under its own name', async () => {
    const { status } = await post('copy/src/lib?to=/dst/vendor/');
    expect(status).toBe(200);
    expect(await content('dst/vendor/lib/lib.jar')).toBe('lib bytes');
  });

  it('reports a dry run without writing anything', async () => {
    const { status, body } = await post('move/src/lib?to=/dst/moved-lib&dry=1');
    expect(status).toBe(200);
    expect(body.messages[0].message).toBe(
      'moving src:lib to dst:moved-lib dry run completed successfully, 1 artifacts and 1 folders would be moved',
    );
    expect(await content('dst/moved-lib/lib.jar')).toBe(404);
    expect(await content('src/lib/lib.jar')).toBe('lib bytes');
  });

  it('refuses, whole, a transfer the target patterns reject', async () => {
    const { status } = await post('copy/src/app?to=/dst/app');
    expect(status).toBe(403);
    expect(await content('dst/app/1.0/app.pom')).toBe(404);
  });

  it('moves a folder: the target has it, the source does not', async () => {
    const { status, body } = await post('move/src/lib?to=/dst/moved-lib');
    expect(status).toBe(200);
    expect(body.messages[0].message).toMatch(/1 artifacts and 1 folders were moved$/);
    expect(await content('dst/moved-lib/lib.jar')).toBe('lib bytes');
    expect(await content('src/lib/lib.jar')).toBe(404);
    expect(await content('src/lib/')).toBe(404);
  });

  it('refuses a copy into itself, a missing source and a missing target', async () => {
    expect((await post('copy/src/app?to=/src/app/inner')).status).toBe(400);
    expect((await post('copy/src/nothing?to=/dst/x')).status).toBe(404);
    expect((await post('copy/src/app/1.0/app.pom?to=/ghost/x')).status).toBe(404);
    expect((await post('copy/src/app/1.0/app.pom')).status).toBe(400);
  });
});
