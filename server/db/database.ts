import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import type { Logger } from 'pino';
import type { DepotConfig } from '../config.ts';
import { EmbeddedDatabase } from './embedded-database.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DepotDatabase } from './tables.ts';
import { MIGRATIONS } from './migrations/index.ts';

export type Database = Kysely<DepotDatabase>;

/** What the database driver tells of its connections, for the metrics (docs/metrics.md). */
export interface PoolStats {
  /** Connections open (PostgreSQL) or queries PGlite is running (embedded). */
  size: number;
  /** Connections open and unused; the embedded database has none to speak of. */
  idle: number;
  /** Callers waiting for a connection, or for the embedded database's open transaction. */
  waiting: number;
}

const poolStatsOf = new WeakMap<Database, () => PoolStats>();

/** The pool figures of a database openDatabase opened; undefined for any other. */
export function databasePoolStats(db: Database): PoolStats | undefined {
  return poolStatsOf.get(db)?.();
}

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
    const db = new Kysely<DepotDatabase>({ dialect: new PostgresDialect({ pool }) });
    poolStatsOf.set(db, () => ({
      size: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return db;
  }
  const embedded = new EmbeddedDatabase(config.home, logger);
  // A start that failed gives the directory back, so that the next try may take it.
  await embedded.waitReady.catch(async (error: unknown) => {
    await embedded.close();
    throw error;
  });
  const dialect = new PGliteDialect(embedded);
  const db = new Kysely<DepotDatabase>({ dialect });
  poolStatsOf.set(db, () => dialect.stats());
  return db;
}

/**
 * Whether the database has applied exactly the migrations this build knows, no more and no
 * fewer. Two small queries: Kysely's Migrator, even with nothing to do, reads the whole
 * catalog to find its own tables, which took 1-3 s of every embedded start (each test file's
 * and each restart's). Any other state (a fresh database, a migration missing, one this build
 * does not know) goes to the Migrator, which migrates under its lock or says what is wrong.
 */
async function upToDate(db: Database): Promise<boolean> {
  const { rows } = await sql<{
    present: string | null;
  }>`select to_regclass('kysely_migration')::text as present`.execute(db);
  if (!rows[0]?.present) return false;
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const known = new Set(Object.keys(MIGRATIONS));
  return applied.rows.length === known.size && applied.rows.every(({ name }) => known.has(name));
}

/** Brings the schema up to date; run at every start. */
export async function migrateToLatest(db: Database, logger: Logger): Promise<void> {
  if (await upToDate(db)) return;
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
