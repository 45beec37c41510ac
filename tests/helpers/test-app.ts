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

/** A throwaway database on a PostgreSQL server (tests, benchmarks); `drop` removes it. */
export async function createScratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `depot_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const config = loadConfig({
    DEPOT_HOME: home,
    DEPOT_PORT: '0',
    DEPOT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
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
