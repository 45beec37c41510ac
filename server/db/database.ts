import { Kysely, Migrator, PostgresDialect } from 'kysely';
import type { Logger } from 'pino';
import type { DepotConfig } from '../config.ts';
import { EmbeddedDatabase } from './embedded-database.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DepotDatabase } from './tables.ts';
import { MIGRATIONS } from './migrations/index.ts';

export type Database = Kysely<DepotDatabase>;

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
    // A connection dropped while checked out (between the statements of a transaction, say)
    // raises 'error' on the client, where the pool's listener is not: the next statement on
    // it fails and its caller hears why, so here it is only noted, never left uncaught.
    pool.on('connect', (client) =>
      client.on('error', (error) =>
        logger.debug({ err: error }, 'database connection lost while in use'),
      ),
    );
    return new Kysely<DepotDatabase>({ dialect: new PostgresDialect({ pool }) });
  }
  const embedded = new EmbeddedDatabase(config.home, logger);
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
