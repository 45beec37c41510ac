import { DatabaseUnavailable, InsufficientStorage, type DepotError } from '../errors.ts';

/** What a request hears when the database's disk is full, for a read as for a write. */
export const DATABASE_DISK_FULL = 'Not enough disk space for the database';

/** PostgreSQL's server shutting down (57P01), crashed (57P02) or still starting (57P03). */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03']);

/**
 * The typed error for a database failure no request could have avoided, told by PostgreSQL's
 * SQLSTATE, which pg and the embedded database (embedded-database.ts) both carry as `code`:
 * disk_full (53100) is 507, a connection lost (class 08) or a server gone is 503. Anything
 * else is undefined: a bug, or an error the caller handles itself (a unique violation).
 */
export function databaseFailure(error: unknown): DepotError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === '53100') return new InsufficientStorage(DATABASE_DISK_FULL);
  if (code.startsWith('08') || SERVER_GONE.has(code)) return new DatabaseUnavailable();
  return undefined;
}
