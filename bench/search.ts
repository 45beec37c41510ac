// npm run bench:search: search at scale (issue 7). A Depot whose repository holds 1,000,000
// files with two properties each; three searches timed through Depot's search service (the
// engine, its SQL and the permission filter), each against a plain indexed SQL query for the
// same rows run in the same process on the same database:
//   quick search by a name fragment   p95 goal <= 50 ms on PGlite, <= 20 ms on PostgreSQL
//   checksum search (SHA-1)           p95 goal <= 5 ms
//   AQL with a property filter, sort  p95 goal <= 100 ms
// PGlite by default; BENCH_DATABASE_URL=postgres://... runs on PostgreSQL (a scratch database
// is created there and dropped). BENCH_FILES and BENCH_RUNS scale it down for a quick look.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../server/db/database.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';
import type { Principal } from '../server/http/permissions.ts';
import { basicPrincipalOf, percentile, reportAgainstSql } from './against-sql.ts';
import { parseAql } from '../server/modules/search/aql-parser.ts';
import { checksumQuery, quickQuery } from '../server/modules/search/builders.ts';
import { createScratchDatabase } from '../tests/helpers/test-app.ts';

const FILES = Number(process.env.BENCH_FILES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const FOLDERS = 1000;
const REPO = 'million-local';
const onPostgres = Boolean(process.env.BENCH_DATABASE_URL);
const GOALS = { quick: onPostgres ? 20 : 50, checksum: 5, aql: 100 };

/** Name i: 5,000 stems of 200 files each, so a fragment like "artifact-1234" finds 200. */
const stem = (i: number) => `artifact-${i % 5000}`;

async function seed(db: Database, repoId: number) {
  const started = Date.now();
  // Distinct fake checksums of the right lengths: search never reads the content.
  await sql`
    insert into blobs (sha256, sha1, md5, size)
    select md5(i::text) || md5((-i)::text), md5(i::text) || left(md5((i + 7)::text), 8),
           md5((i * 3)::text), 100 + i % 1000
    from generate_series(1, ${FILES}) as i`.execute(db);
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
    select ${repoId}, 'd-' || lpad(d::text, 4, '0'), '', 'd-' || lpad(d::text, 4, '0'), true, 0,
           'seed', 'seed'
    from generate_series(1, ${FOLDERS}) as d`.execute(db);
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
                       created_at, created_by, modified_at, modified_by)
    select ${repoId}, 'd-' || lpad((i % ${FOLDERS} + 1)::text, 4, '0') || '/artifact-' || (i % 5000) || '-' || i || '.jar',
           'd-' || lpad((i % ${FOLDERS} + 1)::text, 4, '0'), 'artifact-' || (i % 5000) || '-' || i || '.jar',
           false, md5(i::text) || md5((-i)::text), 100 + i % 1000,
           now() - make_interval(secs => i), 'seed', now() - make_interval(secs => i), 'seed'
    from generate_series(1, ${FILES}) as i`.execute(db);
  await sql`
    insert into node_properties (node_id, key, value)
    select id, 'build.name', 'build-' || (id % 100) from nodes where repository_id = ${repoId} and not folder
    union all
    select id, 'build.number', (id % 1000)::text from nodes where repository_id = ${repoId} and not folder`.execute(
    db,
  );
  await sql`analyze`.execute(db);
  console.log(
    `seeded ${FILES.toLocaleString('en')} files in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

async function time(run: (i: number) => Promise<number>) {
  for (let i = 0; i < 10; i++) await run(i); // warm up
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    rows += await run(i + 10);
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), rows: rows / RUNS };
}

const home = mkdtempSync(join(tmpdir(), 'depot-bench-search-'));
const scratch = onPostgres
  ? await createScratchDatabase(process.env.BENCH_DATABASE_URL!)
  : undefined;
const config = loadConfig({
  DEPOT_HOME: home,
  DEPOT_PORT: '0',
  DEPOT_ADMIN_PASSWORD: 'bench-search-pass-1',
  DEPOT_LOG_STDOUT: 'false',
  DEPOT_LOG_LEVEL: 'warn',
  ...(scratch ? { DEPOT_DATABASE_URL: scratch.url } : {}),
});
const depot = await buildApp(config, createLogger(config));
try {
  const { services, db } = depot;
  await services.repositories.create({
    key: REPO,
    rclass: 'local',
    packageType: 'generic',
  } as never);
  const repo = await services.artifacts.repository(REPO);
  await seed(db, repo.id);
  // A reader who is not an administrator: the default readers group reads everything.
  await services.users.create({
    name: 'reader',
    email: 'r@example.com',
    password: 'reader-pass-1',
    groups: ['readers'],
  } as never);
  const admin: Principal = {
    name: 'admin',
    admin: true,
    anonymous: false,
    via: 'basic',
    userId: 1,
  };
  const reader = await basicPrincipalOf(db, 'reader');
  const fragment = (i: number) => stem((i * 7919) % 5000);
  const sha1Of = async (i: number) =>
    (
      await sql<{
        sha1: string;
      }>`select md5(${String(i)}) || left(md5(${String(i + 7)}), 8) as sha1`.execute(db)
    ).rows[0].sha1;
  const sha1s = await Promise.all(
    Array.from({ length: 50 }, (_, i) => sha1Of(((i * 15485863) % FILES) + 1)),
  );

  const plainQuick = (i: number) =>
    sql`select n.id, n.path, n.name from nodes n join repositories r on r.id = n.repository_id
        where lower(n.name) collate "C" like ${`${fragment(i)}-%`} and not n.folder
        order by lower(n.name) collate "C", n.id limit 501`
      .execute(db)
      .then((r) => r.rows.length);
  for (const [label, who] of [
    ['quick search (admin)', admin],
    ['quick search (non-admin reader)', reader],
  ] as const) {
    const viaDepot = await time(
      async (i) =>
        (await services.search.page(who, quickQuery(`${fragment(i)}-`), { limit: 500 })).items
          .length,
    );
    reportAgainstSql(label, GOALS.quick, viaDepot, await time(plainQuick));
  }

  const viaChecksum = await time(
    async (i) =>
      (await services.search.page(admin, checksumQuery(sha1s[i % sha1s.length]), { limit: 500 }))
        .items.length,
  );
  const plainChecksum = await time((i) =>
    sql`select n.id, n.path from blobs b join nodes n on n.sha256 = b.sha256
        where b.sha1 = ${sha1s[i % sha1s.length]}`
      .execute(db)
      .then((r) => r.rows.length),
  );
  reportAgainstSql('checksum search (SHA-1)', GOALS.checksum, viaChecksum, plainChecksum);

  const build = (i: number) => `build-${i % 100}`;
  const viaAql = await time(async (i) => {
    const aql = parseAql(
      `items.find({"repo":"${REPO}","@build.name":"${build(i)}"}).sort({"$desc":["created"]}).limit(100)`,
      config.aql,
    );
    let count = 0;
    const rows = await services.search.stream(
      admin,
      { where: aql.where, sort: aql.sort, scope: 'artifacts' },
      {
        limit: aql.limit,
      },
    );
    for await (const _row of rows) count++;
    return count;
  });
  const plainAql = await time((i) =>
    sql`select n.id, n.path from nodes n
        where not n.folder and exists (select 1 from node_properties p
          where p.node_id = n.id and p.key = 'build.name' and p.value = ${build(i)})
        order by n.created_at desc limit 100`
      .execute(db)
      .then((r) => r.rows.length),
  );
  reportAgainstSql('AQL: property filter, sort by date', GOALS.aql, viaAql, plainAql);
} finally {
  await depot.app.close();
  await scratch?.drop();
  rmSync(home, { recursive: true, force: true });
}
