import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_UTF8 } from '../server/http/json-body.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Input an attacker sizes or encodes to hurt: a build-info listing 100,000 modules, a module
 * listing more artifacts than a build may, and JSON whose bytes are not UTF-8. Each is a 400
 * in words a person reads, before anything is stored.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());

const STARTED = '2026-01-01T00:00:00.000+0000';
const putBuild = (payload: string | Buffer) =>
  depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/build',
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    payload,
  });
const storedBuilds = async () =>
  (await depot.app.inject({ url: '/artifactory/api/build', headers: adminAuth() })).json().builds;

describe('a build-info document', () => {
  it('listing 100,000 modules is a 400 naming the limit, and stores nothing', async () => {
    const modules = Array.from({ length: 100_000 }, (_, n) => ({ id: `org:m${n}:1` }));
    const response = await putBuild(
      JSON.stringify({ version: '1.0.1', name: 'huge', number: '1', started: STARTED, modules }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(
      'modules lists more than 10,000 entries (the limit of one build)',
    );
    expect(await storedBuilds()).toEqual([]);
  });

  it('whose module lists more than 100,000 dependencies is a 400 naming where', async () => {
    const dependencies = Array.from({ length: 100_001 }, (_, n) => ({ id: `d${n}` }));
    const response = await putBuild(
      JSON.stringify({
        version: '1.0.1',
        name: 'wide',
        number: '1',
        started: STARTED,
        modules: [{ id: 'org:app:1', dependencies }],
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(
      /^modules\[0\]\.dependencies lists more than 100,000 entries/,
    );
    expect(await storedBuilds()).toEqual([]);
  });

  it('with a name that is not UTF-8 is a 400, not a name stored with U+FFFD', async () => {
    const head = Buffer.from('{"version":"1.0.1","name":"caf');
    const tail = Buffer.from(`","number":"1","started":"${STARTED}"}`);
    // 0xE9 alone is é in Latin-1: a client sending the wrong encoding.
    const response = await putBuild(Buffer.concat([head, Buffer.from([0xe9]), tail]));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(NOT_UTF8);
    expect(await storedBuilds()).toEqual([]);
    // The same name in UTF-8 is stored as sent.
    const utf8 = await putBuild(Buffer.concat([head, Buffer.from('é'), tail]));
    expect(utf8.statusCode, utf8.body).toBe(204);
    expect((await storedBuilds()).map((build: { uri: string }) => build.uri)).toEqual([
      `/${encodeURIComponent('café')}`,
    ]);
  });
});
