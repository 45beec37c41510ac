// npm run bench:builds: builds at scale (issue 27). A Depot holding BENCH_BUILDS builds (10,000
// by default) of BENCH_MODULES modules (50), each module with one artifact and one dependency,
// and two builds of 2,000 artifacts each to compare. Three calls timed through Depot's
// services (their SQL and the build permission filter), each against a plain indexed SQL query
// for the same rows, the two alternating round by round in the same process and database:
//   builds list, first page (global-search/builds)   p95 goal <= 100 ms
//   an artifact's Builds tab (ui/artifactbuilds)     p95 goal <= 50 ms
//   a diff of two 2,000-artifact builds              p95 goal <= 300 ms
// The bulk builds are seeded straight into the tables an upload writes (the build-info files'
// nodes, `builds`, `build_files`), with generate_series; the two compared builds are uploaded
// through the builds service. PGlite by default; BENCH_DATABASE_URL=postgres://... runs on
// PostgreSQL (a scratch database is created there and dropped). BENCH_BUILDS, BENCH_MODULES
// and BENCH_RUNS scale it down for a quick look. Seeding the full size takes minutes:
// BENCH_KEEP=<dir> (PGlite only) keeps the Depot's home in that directory and, when it already
// holds a seeded Depot, times that one again (migrations added since run on it first). The
// directory is yours to remove.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../server/db/database.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';
import type { Principal } from '../server/http/permissions.ts';
import { basicPrincipalOf, percentile, reportAgainstSql, type Timed } from './against-sql.ts';
import { createScratchDatabase } from '../tests/helpers/test-app.ts';
import { buildInfo } from '../tests/helpers/build-info.ts';

const BUILDS = Number(process.env.BENCH_BUILDS ?? 10_000);
const MODULES = Number(process.env.BENCH_MODULES ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** Twenty builds a name, as a CI job keeps them. */
const NAMES = Math.max(1, Math.floor(BUILDS / 20));
/** Dependency contents shared by the builds: each is used by BUILDS * MODULES / DEPENDENCIES. */
const DEPENDENCIES = Math.max(1, Math.floor((BUILDS * MODULES) / 100));
const DIFF_ARTIFACTS = 2000;
const GOALS = { list: 100, tab: 50, diff: 300 };
const LIBS = 'libs-release-local';
const BUILD_REPO = 'artifactory-build-info';

// Fake checksums of the right lengths for a content key: the builds never read the content.
const SHA256 = (key: string) => sql`md5(${sql.raw(key)}) || md5(${sql.raw(key)} || '#')`;
const SHA1 = (key: string) =>
  sql`md5(${sql.raw(key)} || '!') || left(md5(${sql.raw(key)} || '?'), 8)`;
const MD5 = (key: string) => sql`md5(${sql.raw(key)} || '$')`;

async function seed(db: Database, buildRepoId: number, libsId: number) {
  const started = Date.now();
  const name = sql`'bench-' || lpad((i % ${NAMES})::text, 5, '0')`;
  const number = sql`(i / ${NAMES} + 1)::text`;
  const startedMs = sql`(1767225600000::bigint + i::bigint * 60000)`;
  const path = sql`${name} || '/' || ${number} || '-' || ${startedMs} || '.json'`;
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
    select ${buildRepoId}::int, 'bench-' || lpad(i::text, 5, '0'), '', 'bench-' || lpad(i::text, 5, '0'),
           true, 0, 'seed', 'seed'
    from generate_series(0, ${NAMES - 1}) as i`.execute(db);
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, sha256, size, created_by, modified_by)
    select ${buildRepoId}::int, ${path}, ${name}, ${number} || '-' || ${startedMs} || '.json', false,
           null, 200, 'seed', 'seed'
    from generate_series(0, ${BUILDS - 1}) as i`.execute(db);
  await sql`
    insert into builds (node_id, repository_key, project_key, name, number, started, started_at,
                        path, document, created_by)
    select n.id, ${BUILD_REPO}, null, ${name}, ${number}, ${startedMs}::text,
           to_timestamp(${startedMs} / 1000.0), ${path},
           jsonb_build_object('name', ${name}, 'number', ${number}, 'url',
                              'https://ci.example.com/job/' || ${name} || '/' || ${number} || '/'),
           'seed'
    from generate_series(0, ${BUILDS - 1}) as i
    join nodes n on n.repository_id = ${buildRepoId} and n.path = ${path}`.execute(db);
  // Module m of build b: one artifact of its own, one dependency shared with other builds.
  const artifact = `'a-' || b.id || '-' || m`;
  const dependency = `'d-' || ((b.id * ${MODULES} + m) % ${DEPENDENCIES})`;
  await sql`
    insert into build_files (build_id, module_id, module_position, kind, position, name, type, scopes, sha1, sha256, md5)
    select b.id, 'module-' || m, m - 1, 'artifact', 0, 'module-' || m || '-' || b.number || '.jar', 'jar', null,
           ${SHA1(artifact)}, ${SHA256(artifact)}, ${MD5(artifact)}
    from builds b cross join generate_series(1, ${MODULES}) as m where b.created_by = 'seed'
    union all
    select b.id, 'module-' || m, m - 1, 'dependency', 0, 'org.dep:dep-' || ((b.id * ${MODULES} + m) % ${DEPENDENCIES}) || ':1',
           'jar', 'compile', ${SHA1(dependency)}, ${SHA256(dependency)}, ${MD5(dependency)}
    from builds b cross join generate_series(1, ${MODULES}) as m where b.created_by = 'seed'`.execute(
    db,
  );
  // Stored items: the first module's artifact of 1,000 builds, and 1,000 dependencies.
  await sql`
    insert into blobs (sha256, sha1, md5, size)
    select ${SHA256(`'a-' || b.id || '-1'`)}, ${SHA1(`'a-' || b.id || '-1'`)}, ${MD5(`'a-' || b.id || '-1'`)}, 100
    from (select id from builds where created_by = 'seed' order by id limit 1000) b
    union all
    select ${SHA256(`'d-' || d`)}, ${SHA1(`'d-' || d`)}, ${MD5(`'d-' || d`)}, 100
    from generate_series(0, ${Math.min(1000, DEPENDENCIES) - 1}) as d`.execute(db);
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, sha256, size, created_by, modified_by)
    select ${libsId}::int, 'artifacts/a-' || b.id || '.jar', 'artifacts', 'a-' || b.id || '.jar', false,
           ${SHA256(`'a-' || b.id || '-1'`)}, 100, 'seed', 'seed'
    from (select id from builds where created_by = 'seed' order by id limit 1000) b
    union all
    select ${libsId}::int, 'deps/d-' || d || '.jar', 'deps', 'd-' || d || '.jar', false,
           ${SHA256(`'d-' || d`)}, 100, 'seed', 'seed'
    from generate_series(0, ${Math.min(1000, DEPENDENCIES) - 1}) as d`.execute(db);
  await sql`analyze`.execute(db);
  const rows = await sql<{ count: string }>`select count(*) from build_files`.execute(db);
  console.log(
    `seeded ${BUILDS.toLocaleString('en')} builds of ${NAMES} names, ${MODULES} modules each ` +
      `(${Number(rows.rows[0].count).toLocaleString('en')} artifact and dependency rows) in ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

/** A build of 2,000 artifacts in 50 modules; `changed` alters a few, drops some, adds some. */
function diffBuild(number: string, changed: boolean) {
  const perModule = DIFF_ARTIFACTS / 50;
  return buildInfo({
    name: 'bench-diff',
    number,
    started: new Date(Date.UTC(2026, 0, 1, Number(number))),
    modules: Array.from({ length: 50 }, (_, m) => ({
      id: `org.acme:part-${m}:1.0`,
      artifacts: Array.from({ length: perModule }, (_, a) => {
        const index = changed && a >= perModule - 1 ? a + 1 : a; // one removed, one added
        const edited = changed && a % 20 === 0 ? 'edited' : '';
        return { name: `part-${m}-${index}.jar`, content: `part ${m} ${index} ${edited}` };
      }),
      dependencies: Array.from({ length: 5 }, (_, d) => ({
        name: `org.dep:lib-${d}:${changed && d === 0 ? 2 : 1}`,
        content: `lib ${d} ${changed && d === 0 ? 2 : 1}`,
        scopes: ['compile'],
      })),
    })),
    properties: { 'buildInfo.env.BRANCH': changed ? 'feature' : 'main' },
  });
}

/** Depot's call and the plain query, alternating round by round after a warm-up. */
async function race(
  runs: number,
  depot: (i: number) => Promise<number>,
  plain: (i: number) => Promise<number>,
): Promise<[Timed, Timed]> {
  for (let i = 0; i < 5; i++) {
    await depot(i);
    await plain(i);
  }
  const times: [number[], number[]] = [[], []];
  const rows = [0, 0];
  for (let i = 0; i < runs; i++) {
    for (const [side, run] of [depot, plain].entries()) {
      const started = performance.now();
      rows[side] += await run(i + 5);
      times[side].push(performance.now() - started);
    }
  }
  const summary = (side: number) => ({
    p50: percentile(times[side], 50),
    p95: percentile(times[side], 95),
    rows: rows[side] / runs,
  });
  return [summary(0), summary(1)];
}

/**
 * The Depot the calls are timed on: the two compared builds uploaded through the service
 * (which also creates the build-info repository), the bulk builds seeded, and a user who is no
 * administrator, reading every build and the libraries by a permission target.
 */
async function seedDepot({ services, db }: Awaited<ReturnType<typeof buildApp>>) {
  const admin: Principal = {
    name: 'admin',
    admin: true,
    anonymous: false,
    via: 'basic',
    userId: 1,
  };
  for (const [number, changed] of [
    ['1', false],
    ['2', true],
  ] as const)
    await services.builds.upload(admin, diffBuild(number, changed) as never);
  await services.repositories.create({
    key: LIBS,
    rclass: 'local',
    packageType: 'generic',
  } as never);
  const buildRepo = await services.artifacts.repository(BUILD_REPO);
  const libs = await services.artifacts.repository(LIBS);
  await seed(db, buildRepo.id, libs.id);
  await services.users.create({
    name: 'reader',
    email: 'r@example.com',
    password: 'reader-pass-1',
  } as never);
}

const report = (name: string, goal: number, [depot, plain]: [Timed, Timed]) =>
  reportAgainstSql(name, goal, depot, plain);

const kept = process.env.BENCH_DATABASE_URL ? undefined : process.env.BENCH_KEEP;
if (kept) mkdirSync(kept, { recursive: true });
const home = kept ?? mkdtempSync(join(tmpdir(), 'depot-bench-builds-'));
const scratch = process.env.BENCH_DATABASE_URL
  ? await createScratchDatabase(process.env.BENCH_DATABASE_URL)
  : undefined;
const config = loadConfig({
  DEPOT_HOME: home,
  DEPOT_PORT: '0',
  DEPOT_ADMIN_PASSWORD: 'bench-builds-pass-1',
  DEPOT_LOG_STDOUT: 'false',
  DEPOT_LOG_LEVEL: 'warn',
  ...(scratch ? { DEPOT_DATABASE_URL: scratch.url } : {}),
});
const depot = await buildApp(config, createLogger(config));
try {
  const { services, db, app } = depot;
  const admin: Principal = {
    name: 'admin',
    admin: true,
    anonymous: false,
    via: 'basic',
    userId: 1,
  };
  const seeded = await db
    .selectFrom('builds')
    .select('id')
    .where('created_by', '=', 'seed')
    .limit(1)
    .executeTakeFirst();
  if (seeded) console.log(`timing the Depot seeded earlier in ${home}`);
  else await seedDepot(depot);
  const libs = await services.artifacts.repository(LIBS);
  const auth = `Basic ${Buffer.from('admin:bench-builds-pass-1').toString('base64')}`;
  const grant = await app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/bench-readers',
    headers: { authorization: auth },
    payload: {
      repo: {
        repositories: [LIBS],
        'include-patterns': ['**'],
        'exclude-patterns': [],
        actions: { users: { reader: ['read'] }, groups: {} },
      },
      build: {
        repositories: [BUILD_REPO],
        'include-patterns': ['**'],
        'exclude-patterns': [],
        actions: { users: { reader: ['read'] }, groups: {} },
      },
    },
  });
  if (grant.statusCode >= 300) throw new Error(`granting the reader failed: ${grant.body}`);
  const reader = await basicPrincipalOf(db, 'reader');

  // Each name's latest build is a row of latest_builds (migration 0050): the plain query
  // reads the first page off its index on the start.
  const plainList = () =>
    sql`select name, number, started_at, repository_key from latest_builds
        order by started_at desc limit 50`
      .execute(db)
      .then((r) => r.rows.length);
  for (const [label, who] of [
    ['builds list, first page (admin)', admin],
    ['builds list, first page (reader)', reader],
  ] as const) {
    const viaDepot = async () =>
      (await services.builds.views.search(who, { offset: 0, limit: 50 })).versions.length;
    report(label, GOALS.list, await race(RUNS, viaDepot, plainList));
  }

  // Alternately an artifact (produced by one build) and a dependency (used by about 100).
  const items = await db
    .selectFrom('nodes')
    .select('path')
    .where('repository_id', '=', libs.id)
    .orderBy('id')
    .execute();
  const artifacts = items.filter((item) => item.path.startsWith('artifacts/'));
  const dependencies = items.filter((item) => item.path.startsWith('deps/'));
  const itemPath = (i: number) => {
    const list = i % 2 === 0 ? artifacts : dependencies;
    return list[Math.floor(i / 2) % list.length].path;
  };
  const plainTab = (i: number) =>
    sql`with file as (select n.sha256, b.sha1 from nodes n join blobs b on b.sha256 = n.sha256
                      where n.repository_id = ${libs.id} and n.path = ${itemPath(i)} and not n.folder)
        select bu.name, bu.number, bu.started, f.kind, f.module_id, f.scopes
        from build_files f join builds bu on bu.id = f.build_id
        where f.sha256 = (select sha256 from file) or f.sha1 = (select sha1 from file)
        order by bu.started_at desc`
      .execute(db)
      .then((r) => r.rows.length);
  for (const [label, who] of [
    ["an artifact's Builds tab (admin)", admin],
    ["an artifact's Builds tab (reader)", reader],
  ] as const) {
    const viaDepot = async (i: number) => {
      const tab = await services.builds.artifactBuilds(who, LIBS, itemPath(i));
      return tab.producedBy.length + tab.usedBy.length;
    };
    report(label, GOALS.tab, await race(RUNS, viaDepot, plainTab));
  }

  const plainDiff = () =>
    sql`with one as (select f.* from build_files f join builds b on b.id = f.build_id
                     where b.name = 'bench-diff' and b.number = '2'),
             other as (select f.* from build_files f join builds b on b.id = f.build_id
                       where b.name = 'bench-diff' and b.number = '1')
        select coalesce(one.kind, other.kind) as kind, coalesce(one.name, other.name) as name,
               one.sha256 as now, other.sha256 as before
        from one full join other
          on one.kind = other.kind and one.module_id = other.module_id and one.name = other.name`
      .execute(db)
      .then((r) => r.rows.length);
  const viaDiff = async () => {
    const diff = await services.builds.diff(admin, 'bench-diff', '2', '1');
    const count = (c: {
      new: unknown[];
      updated: unknown[];
      unchanged: unknown[];
      removed: unknown[];
    }) => c.new.length + c.updated.length + c.unchanged.length + c.removed.length;
    return count(diff.artifacts) + count(diff.dependencies);
  };
  report(
    'a diff of two 2,000-artifact builds',
    GOALS.diff,
    await race(Math.max(10, Math.floor(RUNS / 4)), viaDiff, plainDiff),
  );
} finally {
  await depot.app.close();
  await scratch?.drop();
  if (kept) console.log(`kept the seeded Depot in ${kept} (BENCH_KEEP)`);
  else rmSync(home, { recursive: true, force: true });
}
