import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp, type DepotApp } from '../../server/app.ts';
import { loadConfig, type DepotConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';

/**
 * A real Depot for one test file: a fresh PGlite in a temp dir, or, when
 * DEPOT_TEST_DATABASE_URL names a PostgreSQL server (CI does), a fresh database on it.
 */
export interface TestDepot extends DepotApp {
  config: DepotConfig;
  close(): Promise<void>;
}

export const TEST_ADMIN_PASSWORD = 'admin-secret-1';
/**
 * TEST_ADMIN_PASSWORD's hash (`npm run password:hash`), what a test Depot starts with: a
 * start given the password itself hashes it, an scrypt of 0.2-0.9 s on a loaded machine,
 * paid at each of the runs' several hundred starts.
 */
export const TEST_ADMIN_PASSWORD_HASH =
  'scrypt$32768$8$1$IuYIHHCpfPbmnCRm2LldLw$svOmDrZK8Ss_GG_Ow_rlSQoAc9d_Y9ytizxNMi7cYKE';

/**
 * A throwaway database on a PostgreSQL server (tests, benchmarks); `drop` removes it. A
 * `template` makes it a copy of that database (tests/helpers/postgres-template.ts), else it
 * starts empty.
 */
export async function createScratchDatabase(
  serverUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `depot_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // FILE_COPY copies the template's files whole: on the tests' server (fsync off) a fifth of
  // the time of the default, which writes every page of the copy to the WAL.
  await admin.query(
    template
      ? `create database ${name} template ${template} strategy file_copy`
      : `create database ${name}`,
  );
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function startTestDepot(env: Record<string, string> = {}): Promise<TestDepot> {
  const home = mkdtempSync(join(tmpdir(), 'depot-test-'));
  const serverUrl = process.env.DEPOT_TEST_DATABASE_URL;
  // npm run test:pg copies the run's migrated database (tests/helpers/postgres-template.ts).
  const scratch = serverUrl
    ? await createScratchDatabase(serverUrl, process.env.DEPOT_TEST_DATABASE_TEMPLATE)
    : undefined;
  // A test that names DEPOT_ADMIN_PASSWORD (even empty: the first start's default) gets it.
  const adminPassword =
    'DEPOT_ADMIN_PASSWORD' in env ? {} : { DEPOT_ADMIN_PASSWORD_HASH: TEST_ADMIN_PASSWORD_HASH };
  const config = loadConfig({
    DEPOT_HOME: home,
    DEPOT_PORT: '0',
    ...adminPassword,
    DEPOT_LOG_STDOUT: 'false',
    DEPOT_LOG_LEVEL: 'info',
    ...(scratch ? { DEPOT_DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const logger = createLogger(config);
  const depot = await buildApp(config, logger);
  return {
    ...depot,
    config,
    async close() {
      await depot.app.close();
      await scratch?.drop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once this Depot's change listener has received every write notification that
 * PostgreSQL committed before the call: they arrive in commit order, so the arrival of one
 * sent now says the earlier ones arrived. A notification arriving late empties the read
 * caches a request has just filled (it means "another node may have written"), which a test
 * counting cache hits must not take for a miss. On the embedded database there is none.
 */
export async function changeNotificationsArrived(depot: TestDepot): Promise<void> {
  if (!depot.config.databaseUrl) return;
  const marker = `test-marker-${Math.random().toString(36).slice(2)}`;
  const arrived = new Promise<void>((resolve) =>
    depot.services.tableChanges.onChange([marker], resolve),
  );
  await sql`select pg_notify('depot_table_changes', ${marker})`.execute(depot.db);
  await arrived;
}

/**
 * Another node of `first`'s cluster: a second Depot on the same PostgreSQL database, with a
 * home of its own. `close` stops it and removes its home (the database stays `first`'s).
 */
export async function startSecondNode(
  first: TestDepot,
  env: Record<string, string> = {},
): Promise<DepotApp & { close(): Promise<void> }> {
  if (!first.config.databaseUrl) throw new Error('a second node needs PostgreSQL');
  const home = mkdtempSync(join(tmpdir(), 'depot-test-'));
  const removeHome = () => rmSync(home, { recursive: true, force: true });
  try {
    const config = loadConfig({
      ...env,
      DEPOT_HOME: home,
      DEPOT_DATABASE_URL: first.config.databaseUrl,
      DEPOT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      DEPOT_LOG_STDOUT: 'false',
    });
    const node = await buildApp(config, createLogger(config));
    return {
      ...node,
      async close() {
        await node.app.close();
        removeHome();
      },
    };
  } catch (error) {
    removeHome();
    throw error;
  }
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export const adminAuth = () => ({ authorization: basic('admin', TEST_ADMIN_PASSWORD) });

/** Creates a repository through the service; generic unless `extra` says otherwise. */
export async function createRepository(
  depot: DepotApp,
  key: string,
  rclass: string,
  extra: Record<string, unknown> = {},
) {
  await depot.services.repositories.create({
    key,
    rclass,
    packageType: 'generic',
    ...extra,
  } as never);
}

/** A Maven repository in the Maven 2 layout, as Maven's clients expect it. */
export const createMavenRepository = (
  depot: DepotApp,
  key: string,
  rclass: string,
  extra: Record<string, unknown> = {},
) =>
  createRepository(depot, key, rclass, {
    packageType: 'maven',
    repoLayoutRef: 'maven-2-default',
    ...extra,
  });

/**
 * Deploys a file as the admin, as a client would (each path segment URL-encoded): its
 * content is its own path unless given. The test fails on anything but 201.
 */
export async function deployFile(
  depot: DepotApp,
  repoKey: string,
  path: string,
  content: Buffer | string = path,
  headers: Record<string, string> = {},
) {
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/${repoKey}/${path.split('/').map(encodeURIComponent).join('/')}`,
    headers: { ...adminAuth(), ...headers },
    payload: content,
  });
  if (response.statusCode !== 201) {
    throw new Error(
      `deploying ${repoKey}/${path} answered ${response.statusCode}: ${response.body}`,
    );
  }
}

/** Signs in through the console's call and returns the headers a console request carries. */
export async function consoleSession(depot: DepotApp, user: string, password: string) {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    payload: { user, password, type: 'login' },
  });
  if (response.statusCode !== 200) {
    throw new Error(`login as ${user} failed: ${response.statusCode} ${response.body}`);
  }
  const cookies = Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
  return {
    cookies,
    /** Headers for a mutating call: the session cookie and the CSRF header. */
    headers: {
      cookie: `depot_session=${cookies.depot_session}; depot_csrf=${cookies.depot_csrf}`,
      'x-csrf-token': cookies.depot_csrf,
    },
  };
}

/** Excludes the files of a folder whose two-digit number is odd: a user reads every other one. */
export const ODD_NUMBERED = (extension: string) =>
  [1, 3, 5, 7, 9].map((digit) => `**/*-?${digit}.${extension}`);

/**
 * Creates user `dev` (password `dev-pass-1`) whose one grant is `repo`: the default targets
 * that let everybody read (Anything, Any Remote) are removed first, so nothing else is.
 */
export async function devWithOnlyGrant(
  depot: DepotApp,
  repo: { repositories: string[]; include: string[]; exclude: string[]; actions: string[] },
) {
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  } as never);
  const permissions = '/artifactory/api/v2/security/permissions';
  for (const target of ['Anything', 'Any Remote'])
    await depot.app.inject({
      method: 'DELETE',
      url: `${permissions}/${encodeURIComponent(target)}`,
      headers: adminAuth(),
    });
  const granted = await depot.app.inject({
    method: 'PUT',
    url: `${permissions}/dev-only`,
    headers: adminAuth(),
    payload: {
      repo: {
        repositories: repo.repositories,
        'include-patterns': repo.include,
        'exclude-patterns': repo.exclude,
        actions: { users: { dev: repo.actions }, groups: {} },
      },
    },
  });
  if (granted.statusCode >= 300) throw new Error(`granting: ${granted.body}`);
}
