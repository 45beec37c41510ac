import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../server/config.ts';
import { migrateToLatest, openDatabase } from '../../server/db/database.ts';

/** The server's URL with another database's name. */
function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * vitest's global setup for `npm run test:pg`: migrates one database once per run, which
 * each test file's Depot (startTestDepot) then copies. Running the 56 migrations on each
 * file's fresh database took about a second of every start; a file copy of the migrated one
 * takes a fifth of that. The copy is what any Depot finds when it starts on a database a
 * former start migrated: the schema check at start (migrateToLatest) still runs on it, and
 * finds every migration applied. Tests of migrating itself make their own fresh databases.
 */
export default async function migratedTemplateForRun(
  project: TestProject,
): Promise<() => Promise<void>> {
  const serverUrl = process.env.DEPOT_TEST_DATABASE_URL;
  // Projects of one run share the main process: the first one makes it, the others reuse it.
  if (!serverUrl || process.env.DEPOT_TEST_DATABASE_TEMPLATE || project.config.watch)
    return async () => {};
  const name = `depot_test_template_${process.pid}`;
  await onServer(serverUrl, `drop database if exists ${name}`);
  await onServer(serverUrl, `create database ${name}`);
  const logger = pino({ level: 'silent' });
  const config = loadConfig({
    DEPOT_HOME: '/nonexistent',
    DEPOT_DATABASE_URL: databaseUrl(serverUrl, name),
  });
  const db = await openDatabase(config, logger);
  try {
    await migrateToLatest(db, logger);
  } finally {
    // A template with a session open cannot be copied.
    await db.destroy();
  }
  process.env.DEPOT_TEST_DATABASE_TEMPLATE = name;
  return async () => {
    delete process.env.DEPOT_TEST_DATABASE_TEMPLATE;
    await onServer(serverUrl, `drop database if exists ${name} with (force)`);
  };
}
