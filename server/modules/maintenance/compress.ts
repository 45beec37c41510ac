import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { humanBytes } from './human-bytes.ts';

export type CompressReport = {
  info: string;
  sizeBefore: number;
  sizeAfter: number;
};

const databaseSize = async (db: Database) => {
  const { rows } = await sql<{
    size: number | string;
  }>`select pg_database_size(current_database()) as size`.execute(db);
  return Number(rows[0].size);
};

/**
 * "Compress the Internal Database": VACUUM (ANALYZE) of the whole database, embedded or
 * PostgreSQL. It reclaims dead rows' space for reuse (the operating system gets files back
 * only when their tail pages are free) and refreshes the planner's statistics.
 */
export async function compressDatabase(db: Database): Promise<CompressReport> {
  const sizeBefore = await databaseSize(db);
  await sql`vacuum (analyze)`.execute(db);
  const sizeAfter = await databaseSize(db);
  return {
    info: `Compressed the internal database: ${humanBytes(sizeBefore)} before, ${humanBytes(sizeAfter)} after`,
    sizeBefore,
    sizeAfter,
  };
}
