import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import type { Logger } from 'pino';
import type { DepotConfig } from '../config.ts';
import { EmbeddedDatabase } from './embedded-database.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DepotDatabase } from './tables.ts';
import * as identity from './migrations/0001-identity.ts';
import * as storage from './migrations/0002-storage.ts';
import * as remoteMisses from './migrations/0003-remote-misses.ts';
import * as blobTouched from './migrations/0004-blob-touched.ts';
import * as repoLayouts from './migrations/0005-repo-layouts.ts';
import * as maintenance from './migrations/0006-maintenance.ts';
import * as remoteMetadata from './migrations/0007-remote-metadata.ts';

export type Database = Kysely<DepotDatabase>;

/** Every migration in order. Names sort; never rename or edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-identity': identity,
  '0002-storage': storage,
  '0003-remote-misses': remoteMisses,
  '0004-blob-touched': blobTouched,
  '0005-repo-layouts': repoLayouts,
  '0006-maintenance': maintenance,
  '0007-remote-metadata': remoteMetadata,
};

/** Opens PostgreSQL when a URL is configured, else the embedded PGlite under `home/db`. */
export async function openDatabase(config: DepotConfig, logger: Logger): Promise<Database> {
  if (config.databaseUrl) {
    const pg = await import('pg');
    // pg answers bigint (count(*)) as a string; numbers here stay well below 2^53.
    pg.default.types.setTypeParser(20, (value: string) => Number(value));
    const pool = new pg.default.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection the server drops (a restart, a failover) is replaced on next use;
    // without a listener pg would raise it as an uncaught exception and end the process.
    pool.on('error', (error) => logger.warn({ err: error }, 'database connection lost'));
    return new Kysely<DepotDatabase>({ dialect: new PostgresDialect({ pool }) });
  }
  const embedded = new EmbeddedDatabase(config.home);
  await embedded.waitReady;
  return new Kysely<DepotDatabase>({ dialect: new PGliteDialect(embedded) });
}

/** Brings the schema up to date; run at every start. */
export async function migrateToLatest(db: Database, logger: Logger): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Success') logger.info({ migration: result.migrationName }, 'migrated');
  }
  if (error) throw error;
}
