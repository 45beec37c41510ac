// npm run bench:access — the access-control figures of issue 5, in one process on PGlite:
//   1. one permission check (`can`) with 1,000 permission targets and 10,000 users;
//   2. a request's whole decision (`forPrincipal`, cached per user and groups) and its first,
//      uncached build;
//   3. sign-in, then the first artifact read, with 50,000 permission targets.
// Each is printed as a median and p95, and as a ratio to a plain indexed SQL query (one user
// row by name) measured in the same run: every request pays at least that already.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';
import type { Principal } from '../server/http/permissions.ts';

const ADMIN_PASSWORD = 'bench-admin-1';
const USERS = 10_000;
const REPOSITORIES = 200;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95) };
}
const ms = (value: number) => `${value < 0.1 ? value.toFixed(4) : value.toFixed(2)} ms`;

async function time(runs: number, body: (i: number) => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await body(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

/** A target naming a few repositories, users and groups, with patterns, as real ones do. */
function target(index: number) {
  const repo = (n: number) => `repo-${String((index * 7 + n) % REPOSITORIES).padStart(3, '0')}`;
  const user = (n: number) => `user-${(index * 13 + n * 101) % USERS}`;
  return {
    'include-patterns': [`team-${index % 50}/**`, 'shared/**'],
    'exclude-patterns': ['**/*.secret'],
    repositories: [repo(0), repo(1), repo(2)],
    actions: {
      users: Object.fromEntries(
        [0, 1, 2, 3, 4].map((n) => [user(n), ['read', 'annotate', 'write']]),
      ),
      groups: { [`group-${index % 100}`]: ['read'] },
    },
  };
}

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'depot-bench-access-'));
  const config = loadConfig({
    DEPOT_HOME: home,
    DEPOT_PORT: '0',
    DEPOT_ADMIN_PASSWORD: ADMIN_PASSWORD,
    DEPOT_LOG_STDOUT: 'false',
    DEPOT_LOG_LEVEL: 'warn',
  });
  const depot = await buildApp(config, createLogger(config));
  const { db, services } = depot;
  try {
    console.log(`seeding ${USERS} users, 100 groups, ${REPOSITORIES} repositories ...`);
    await sql`insert into users (name, email, password_hash, admin)
      select 'user-' || i, 'user-' || i || '@example.com', null, false
      from generate_series(0, ${USERS - 1}) as i`.execute(db);
    await sql`insert into groups (name) select 'group-' || i from generate_series(0, 99) as i`.execute(
      db,
    );
    await sql`insert into user_groups (user_id, group_id)
      select u.id, g.id from users u join groups g
        on g.name = 'group-' || (substring(u.name from 6)::int % 100)
      where u.name like 'user-%'`.execute(db);
    for (let i = 0; i < REPOSITORIES; i++)
      await services.repositories.create({
        key: `repo-${String(i).padStart(3, '0')}`,
        rclass: 'local',
        packageType: 'generic',
      });
    await services.users.create({
      name: 'probe',
      email: 'probe@example.com',
      password: 'probe-pass-1',
    });

    const seedTargets = async (count: number) => {
      await sql`delete from permission_targets`.execute(db);
      for (let start = 0; start < count; start += 1000) {
        const rows = Array.from({ length: Math.min(1000, count - start) }, (_, k) => ({
          name: `target-${start + k}`,
          repo: JSON.stringify(target(start + k)),
        }));
        await db.insertInto('permission_targets').values(rows).execute();
      }
      services.tableChanges.changed(['permission_targets']);
    };

    const userRow = (name: string) =>
      db
        .selectFrom('users')
        .select(['id', 'name', 'admin'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
    const principalOf = async (name: string): Promise<Principal> => {
      const row = await userRow(name);
      return { userId: row.id, name: row.name, admin: false, anonymous: false, via: 'basic' };
    };

    console.log('1,000 permission targets:');
    await seedTargets(1000);
    const peer = stats(await time(2000, (i) => userRow(`user-${i % USERS}`)));
    const principals = await Promise.all(
      Array.from({ length: 200 }, (_, i) => principalOf(`user-${i * 37}`)),
    );
    const firstBuild = stats(
      await time(principals.length, async (i) => {
        services.tableChanges.changed(['permission_targets']); // uncached each time
        await services.access.forPrincipal(principals[i]!);
      }),
    );
    const warm = stats(
      await time(5000, (i) => services.access.forPrincipal(principals[i % principals.length]!)),
    );
    const access = await services.access.forPrincipal(principals[0]!);
    const checks = stats(
      await time(100_000, (i) =>
        access.can(
          'read',
          `repo-${String(i % REPOSITORIES).padStart(3, '0')}`,
          `team-${i % 50}/a/b/c-${i}.jar`,
        ),
      ),
    );
    console.log(
      `  plain indexed SQL (one user row): median ${ms(peer.median)}, p95 ${ms(peer.p95)}`,
    );
    console.log(
      `  one permission check (can):        median ${ms(checks.median)}, p95 ${ms(checks.p95)}  goal < 1 ms: ${checks.median < 1 ? 'met' : 'NOT met'}  (${(checks.median / peer.median).toFixed(3)}x the SQL)`,
    );
    console.log(
      `  a request's decision, cached:      median ${ms(warm.median)}, p95 ${ms(warm.p95)}  (${(warm.median / peer.median).toFixed(2)}x the SQL)`,
    );
    console.log(
      `  a decision built from scratch:     median ${ms(firstBuild.median)}, p95 ${ms(firstBuild.p95)}  (${(firstBuild.median / peer.median).toFixed(1)}x the SQL)`,
    );

    console.log('50,000 permission targets:');
    await seedTargets(50_000);
    const signIns = stats(
      await time(5, () =>
        depot.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/auth/login',
          payload: { user: 'probe', password: 'probe-pass-1', type: 'login' },
        }),
      ),
    );
    await services.artifacts; // the repositories exist; deploy one file to read back
    await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/repo-000/shared/a.txt',
      headers: {
        authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
      },
      payload: 'a',
    });
    const probeAuth = {
      authorization: `Basic ${Buffer.from('probe:probe-pass-1').toString('base64')}`,
    };
    const firstRead = stats(
      await time(5, async () => {
        services.tableChanges.changed(['permission_targets']);
        await depot.app.inject({ url: '/artifactory/repo-000/shared/a.txt', headers: probeAuth });
      }),
    );
    console.log(
      `  sign-in (POST /ui/auth/login):     median ${ms(signIns.median)}  goal < 1 s: ${signIns.median < 1000 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  first artifact read after it (targets loaded, decision built): median ${ms(firstRead.median)}  goal < 1 s: ${firstRead.median < 1000 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await depot.app.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
