import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from './helpers/build-info.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * A file deployed to the build-info repository through the plain deploy URL is a build, as
 * in Artifactory (docs/builds.md, "Deploying to the build-info repository"): stored at its
 * place and listed by the build calls; a file that is no build-info document is refused and
 * nothing is stored.
 */
let depot: TestDepot;
const REPO = '/artifactory/artifactory-build-info';
const put = (url: string, payload: string | object) =>
  depot.app.inject({ method: 'PUT', url, headers: adminAuth(), payload });
const get = (url: string) => depot.app.inject({ method: 'GET', url, headers: adminAuth() });

beforeAll(async () => {
  depot = await startTestDepot();
  // The first build creates the repository, as CI's first upload does.
  const first = await put(
    '/artifactory/api/build',
    buildInfo({ name: 'via-api', number: '1', modules: [] }),
  );
  expect(first.statusCode, first.body).toBe(204);
});
afterAll(async () => {
  await depot?.close();
});

describe('deploying to the build-info repository', () => {
  it('stores a build-info document as a build, at its own place', async () => {
    const started = new Date(Date.UTC(2026, 0, 31, 12));
    const document = buildInfo({ name: 'via-deploy', number: '7', started, modules: [] });
    const deployed = await put(`${REPO}/anywhere/build.json`, JSON.stringify(document));
    expect(deployed.statusCode, deployed.body).toBe(201);
    const place = `via-deploy/7-${started.getTime()}.json`;
    expect(deployed.json()).toEqual({ repo: 'artifactory-build-info', path: `/${place}` });
    const numbers = await get('/artifactory/api/build/via-deploy');
    expect(numbers.json().buildsNumbers).toEqual([
      { uri: '/7', started: '2026-01-31T12:00:00.000+0000' },
    ]);
    expect((await get(`${REPO}/${place}`)).statusCode).toBe(200);
    expect((await get(`${REPO}/anywhere/build.json`)).statusCode).toBe(404);
  });

  it('refuses a file that is no build-info document, storing nothing', async () => {
    const text = await put(`${REPO}/notes.txt`, 'just some notes');
    expect(text.statusCode).toBe(400);
    expect(text.body).toContain('A build-info repository holds build-info JSON documents only');
    expect((await get(`${REPO}/notes.txt`)).statusCode).toBe(404);

    const noNumber = await put(
      `${REPO}/broken.json`,
      JSON.stringify({ name: 'broken', started: '2026-01-31T12:00:00.000+0000' }),
    );
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.body).toContain('number');
    expect((await get('/artifactory/api/build/broken')).statusCode).toBe(404);
  });
});
