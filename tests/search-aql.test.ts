import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  devWithOnlyGrant,
  ODD_NUMBERED,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * AQL at `POST /artifactory/api/search/aql` over a seeded index: every operator, include,
 * sort, offset and limit, properties and checksums, permission filtering before the limit,
 * and bad queries answered with a clear 400.
 */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };

async function aql(query: string, headers: object = adminAuth()) {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/artifactory/api/search/aql',
    headers: { ...headers, 'content-type': 'text/plain' },
    payload: query,
  });
  return { status: response.statusCode, body: response.json() };
}

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'libs-local', 'local');
  await createRepository(depot, 'team-local', 'local');
  await deployFile(depot, 'libs-local', 'org/acme/app-1.0.jar;build.name=app;build.number=7', 'a');
  await deployFile(
    depot,
    'libs-local',
    'org/acme/app-1.1.jar;build.name=app;build.number=12',
    'bb',
  );
  await deployFile(depot, 'libs-local', 'org/acme/App-Notes.txt;status=draft', 'ccc');
  await deployFile(depot, 'libs-local', 'root.txt', 'dddd');
  await deployFile(depot, 'team-local', 'org/acme/tool.jar;build.name=tool', 'eeeee');
  for (let i = 0; i < 30; i++)
    await deployFile(depot, 'team-local', `bulk/f-${String(i).padStart(2, '0')}.bin`, `x${i}`);
  // dev reads every other file of bulk/ only: the odd ones are excluded.
  await devWithOnlyGrant(depot, {
    repositories: ['team-local'],
    include: ['bulk/**'],
    exclude: ODD_NUMBERED('bin'),
    actions: ['read'],
  });
});
afterAll(() => depot.close());

describe('criteria', () => {
  it('answers items in Artifactory shape with a range', async () => {
    const { status, body } = await aql('items.find({"repo":"libs-local","name":"root.txt"})');
    expect(status).toBe(200);
    expect(body.results).toEqual([
      expect.objectContaining({
        repo: 'libs-local',
        path: '.',
        name: 'root.txt',
        type: 'file',
        size: 4,
        created_by: 'admin',
        modified_by: 'admin',
      }),
    ]);
    expect(body.results[0].created).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.range).toEqual({ start_pos: 0, end_pos: 1, total: 1 });
  });

  it('compares with $eq, $ne, $gt, $gte, $lt and $lte', async () => {
    const inLibs = (criteria: string) =>
      aql(`items.find({"repo":"libs-local",${criteria}}).sort({"$asc":["name"]})`);
    expect(names((await inLibs('"size":{"$eq":2}')).body)).toEqual(['app-1.1.jar']);
    expect(names((await inLibs('"size":{"$ne":2}')).body)).toEqual([
      'app-1.0.jar',
      'App-Notes.txt',
      'root.txt',
    ]);
    expect(names((await inLibs('"size":{"$gt":2}')).body)).toEqual(['App-Notes.txt', 'root.txt']);
    expect(names((await inLibs('"size":{"$gte":3,"$lt":4}')).body)).toEqual(['App-Notes.txt']);
    expect(names((await inLibs('"size":{"$lte":1}')).body)).toEqual(['app-1.0.jar']);
  });

  it('matches with $match and $nmatch, case-sensitively, with * and ?', async () => {
    const { body } = await aql(
      'items.find({"name":{"$match":"app-1.?.jar"}}).sort({"$asc":["name"]})',
    );
    expect(names(body)).toEqual(['app-1.0.jar', 'app-1.1.jar']);
    expect(names((await aql('items.find({"name":{"$match":"App*"}})')).body)).toEqual([
      'App-Notes.txt',
    ]);
    const none = await aql(
      'items.find({"repo":"libs-local","name":{"$nmatch":"*.jar"}}).sort({"$asc":["name"]})',
    );
    expect(names(none.body)).toEqual(['App-Notes.txt', 'root.txt']);
    // SQL's own wildcards are plain characters to AQL.
    expect((await aql('items.find({"name":{"$match":"%"}})')).body.results).toEqual([]);
    expect((await aql('items.find({"name":{"$match":"app_1.0.jar"}})')).body.results).toEqual([]);
  });

  it('combines with $and and $or, nested', async () => {
    const { body } = await aql(
      `items.find({"$or":[{"name":"tool.jar"},{"$and":[{"repo":"libs-local"},{"name":{"$match":"*.txt"}}]}]})
        .sort({"$asc":["name"]})`,
    );
    expect(names(body)).toEqual(['App-Notes.txt', 'root.txt', 'tool.jar']);
  });

  it('filters by path, type and dates', async () => {
    expect(names((await aql('items.find({"path":"org/acme","repo":"team-local"})')).body)).toEqual([
      'tool.jar',
    ]);
    const folders = await aql(
      'items.find({"repo":"libs-local","type":"folder"}).sort({"$asc":["path","name"]})',
    );
    expect(
      folders.body.results.map((r: { path: string; name: string }) => `${r.path}/${r.name}`),
    ).toEqual(['./org', 'org/acme']);
    const any = await aql('items.find({"repo":"libs-local","type":"any"})');
    expect(any.body.results).toHaveLength(6);
    expect((await aql('items.find({"created":{"$gt":"2000-01-01"}})')).body.results).toHaveLength(
      35,
    );
    expect((await aql('items.find({"created":{"$lt":"2000-01-01"}})')).body.results).toHaveLength(
      0,
    );
    expect((await aql('items.find({"modified":{"$last":"1d"}})')).body.results).toHaveLength(35);
    expect((await aql('items.find({"created":{"$before":"1d"}})')).body.results).toHaveLength(0);
    expect(
      (await aql('items.find({"created_by":"admin","name":"root.txt"})')).body.results,
    ).toHaveLength(1);
  });

  it('finds by properties and answers them when included', async () => {
    // Property values compare as text, as in Artifactory: "12" sorts before "5", "7" after.
    const byBuild = await aql(
      'items.find({"@build.name":"app","@build.number":{"$lt":"5"}}).include("name","property.*")',
    );
    expect(byBuild.body.results).toEqual([
      {
        name: 'app-1.1.jar',
        properties: [
          { key: 'build.name', value: 'app' },
          { key: 'build.number', value: '12' },
        ],
      },
    ]);
    const hasBuild = await aql(
      'items.find({"@build.name":{"$match":"*"}}).sort({"$asc":["name"]})',
    );
    expect(names(hasBuild.body)).toEqual(['app-1.0.jar', 'app-1.1.jar', 'tool.jar']);
    const notApp = await aql('items.find({"@build.name":{"$ne":"app"},"repo":"libs-local"})');
    expect(names(notApp.body).sort()).toEqual(['App-Notes.txt', 'root.txt']);
    const byKey = await aql('items.find({"property.key":"status"})');
    expect(names(byKey.body)).toEqual(['App-Notes.txt']);
    const byValue = await aql('items.find({"property.value":{"$match":"dra*"}})');
    expect(names(byValue.body)).toEqual(['App-Notes.txt']);
  });

  it('finds by checksums and includes them', async () => {
    const all = await aql(
      'items.find({"name":"root.txt"}).include("name","sha256","actual_sha1","actual_md5")',
    );
    const { sha256, actual_sha1, actual_md5 } = all.body.results[0];
    const digest = (algorithm: string) => createHash(algorithm).update('dddd').digest('hex');
    expect([sha256, actual_sha1, actual_md5]).toEqual([
      digest('sha256'),
      digest('sha1'),
      digest('md5'),
    ]);
    for (const [field, value] of [
      ['sha256', sha256],
      ['actual_sha1', actual_sha1],
      ['actual_md5', actual_md5],
      ['original_md5', actual_md5],
    ])
      expect(names((await aql(`items.find({"${field}":"${value}"})`)).body)).toEqual(['root.txt']);
  });
});

describe('modifiers', () => {
  it('sorts, offsets and limits', async () => {
    const page = await aql(
      'items.find({"repo":"team-local","path":"bulk"}).sort({"$desc":["name"]}).offset(2).limit(3)',
    );
    expect(names(page.body)).toEqual(['f-27.bin', 'f-26.bin', 'f-25.bin']);
    expect(page.body.range).toEqual({ start_pos: 2, end_pos: 5, total: 3, limit: 3 });
  });

  it('answers only the included fields', async () => {
    const { body } = await aql('items.find({"name":"tool.jar"}).include("repo","path","size")');
    expect(body.results).toEqual([{ repo: 'team-local', path: 'org/acme', size: 5 }]);
  });

  it('filters by permission before the offset and the limit', async () => {
    const { body, status } = await aql(
      'items.find({"name":{"$match":"f-*"}}).sort({"$asc":["name"]}).offset(1).limit(4)',
      DEV,
    );
    expect(status).toBe(200);
    // dev reads f-00, f-02, f-04, ...: the second to the fifth of those.
    expect(names(body)).toEqual(['f-02.bin', 'f-04.bin', 'f-06.bin', 'f-08.bin']);
    const everything = await aql('items.find()', DEV);
    expect(everything.body.results).toHaveLength(15);
    expect(everything.body.results.every((r: { repo: string }) => r.repo === 'team-local')).toBe(
      true,
    );
  });

  it('streams every match when there is no limit', async () => {
    const { body } = await aql('items.find({"repo":"team-local","path":"bulk"})');
    expect(body.results).toHaveLength(30);
    expect(body.range).toEqual({ start_pos: 0, end_pos: 30, total: 30 });
  });
});

describe('bad queries', () => {
  const refusals: [string, RegExp][] = [
    ['items.find({"colour":"red"})', /unknown field "colour".* at position 13$/],
    ['items.find({"name":"a"}', /expected '\)' but found the end of the query at position 24$/],
    ['items.find({"name":"a"))', /expected '}' but found '\)' at position 23$/],
    ['items.find({"name":{"$like":"a"}})', /unknown operator "\$like"/],
    ['entries.find()', /unknown domain 'entries', expected items or builds at position 1$/],
    [
      'items.find().limit(99999999999999999999)',
      /limit must be a whole number from 0 to 2147483647/,
    ],
    ['items.find().limit(-1)', /limit must be a whole number/],
    ['items.find().offset(1.5)', /offset must be a whole number/],
    ['items.find().sort({"$asc":["colour"]})', /unknown field "colour"/],
    ['items.find().include("secret")', /unknown field "secret"/],
    ['items.find({"size":"big"})', /expected a whole number with a comparison for size/],
    ['items.find({"size":1e30})', /expected a whole number with a comparison for size/],
    ['items.find({"size":1.5})', /expected a whole number/],
    ['items.find({"size":{"$match":"1*"}})', /expected a whole number with a comparison/],
    ['items.find({"created":"yesterday"})', /expected a date/],
    ['items.find({"created":{"$gt":100000000000000000000}})', /expected a date/],
    [
      'items.find({"created":{"$match":"2024*"}})',
      /expected a date such as 2024-01-31 with a comparison/,
    ],
    ['items.find({"created":{"$last":"99999999999y"}})', /expected a period such as 3d/],
    ['items.find({"name":"unterminated})', /a string that is never closed at position 20$/],
    ['items.find() drop table nodes', /expected '.' or the end of the query but found 'drop'/],
  ];
  it.each(refusals)('%s is a 400 that says where', async (query, message) => {
    const { status, body } = await aql(query);
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(message);
    expect(body.errors[0].message).toMatch(/^AQL: /);
  });

  it('treats injection attempts in every string position as plain values', async () => {
    const attempts = [
      `items.find({"name":"x' or '1'='1"})`,
      `items.find({"name":{"$match":"*'; drop table nodes; --"}})`,
      `items.find({"repo":"libs-local\\"); delete from nodes; --"})`,
      `items.find({"@build.name'); delete from nodes; --":"app"})`,
      `items.find({"@build.name":"app') or ('1'='1"})`,
      `items.find({"property.key":{"$match":"*' or 1=1 --"}})`,
    ];
    for (const attempt of attempts) {
      const { status, body } = await aql(attempt);
      expect(status, attempt).toBe(200);
      expect(body.results, attempt).toEqual([]);
    }
    expect((await aql('items.find()')).body.results).toHaveLength(35);
  });

  it('refuses an empty body, and anonymous callers when anonymous access is off', async () => {
    expect((await aql('  ')).status).toBe(400);
    expect((await aql('items.find()', {})).status).toBe(401);
  });
});

describe('limits on one query', () => {
  /** `levels` brackets deep: `$and`s, each an object and an array, around `inner`. */
  const nestedAnd = (ands: number, inner: string) =>
    `items.find(${'{"$and":['.repeat(ands)}${inner}${']}'.repeat(ands)})`;

  it('answers a query nested 32 levels deep, the limit', async () => {
    // 15 $and (30 levels), then an object holding an object of operators (levels 31 and 32).
    const { status, body } = await aql(nestedAnd(15, '{"name":{"$eq":"root.txt"}}'));
    expect(status).toBe(200);
    expect(names(body)).toEqual(['root.txt']);
  });

  it('refuses 20,000 nested $and with a 400 naming the depth limit, not a stack overflow', async () => {
    const { status, body } = await aql(nestedAnd(20000, '{"name":"root.txt"}'));
    expect(status).toBe(400);
    // The 33rd bracket: `items.find(` is 11 characters and each `{"$and":[` 9.
    expect(body.errors[0].message).toBe(
      'AQL: nesting deeper than 32 levels (the limit) at position 156',
    );
  });

  it('refuses brackets nested past the limit anywhere, arrays included', async () => {
    const { status, body } = await aql(
      `items.find({"name":${'['.repeat(100000)}${']'.repeat(100000)}})`,
    );
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(/^AQL: nesting deeper than 32 levels \(the limit\)/);
  });

  it('answers 100 criteria and refuses the 101st, naming the limit and where', async () => {
    const terms = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        i === 0 ? '{"name":"root.txt"}' : `{"name":{"$match":"absent-${i}*"}}`,
      ).join(',');
    const accepted = await aql(`items.find({"$or":[${terms(100)}]})`);
    expect(accepted.status).toBe(200);
    expect(names(accepted.body)).toEqual(['root.txt']);

    const query = `items.find({"$or":[${terms(100)},{"size":{"$gt":0,"$lt":9}}]})`;
    const refused = await aql(query);
    expect(refused.status).toBe(400);
    const position = query.indexOf('"$gt"') + 1;
    expect(refused.body.errors[0].message).toBe(
      `AQL: more than 100 criteria (the limit) at position ${position}`,
    );
  });

  it('answers a query of 64 KB, the limit, and refuses one byte more with a 413', async () => {
    const query = 'items.find({"name":"root.txt"})';
    const padded = (bytes: number) => query + ' '.repeat(bytes - query.length);
    const accepted = await aql(padded(64 * 1024));
    expect(accepted.status).toBe(200);
    expect(names(accepted.body)).toEqual(['root.txt']);

    for (const body of [padded(64 * 1024 + 1), padded(530 * 1024)]) {
      const refused = await aql(body);
      expect(refused.status).toBe(413);
      expect(refused.body.errors[0].message).toBe(
        'AQL: the query is larger than 65,536 bytes, the most a query may be',
      );
    }
    // Past the server's own body limit (1 MiB) the body is not even read.
    expect((await aql(padded(2 * 1024 * 1024))).status).toBe(413);
  });

  it('counts the size in bytes, as sent', async () => {
    // 'é' is two bytes in UTF-8: 33,000 of them pass the limit in fewer characters.
    const { status } = await aql(`items.find({"name":"${'é'.repeat(33000)}"})`);
    expect(status).toBe(413);
  });
});
