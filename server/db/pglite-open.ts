import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's defaults are sized for a dedicated server (128 MB of shared buffers). Depot's
 * embedded mode should start in seconds on a laptop and idle small, so it asks for less;
 * a team that outgrows this runs PostgreSQL itself (DEPOT_DATABASE_URL).
 */
const EMBEDDED_SETTINGS = {
  shared_buffers: '16MB',
  work_mem: '4MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '4MB',
  wal_buffers: '1MB',
};

/** Opens (creating on first start) the embedded database under `home/db`. */
export async function openPGlite(home: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = join(home, 'db');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    // initdb runs in a WebAssembly instance of its own that the creating PGlite keeps
    // referenced (several hundred MB); closing it and opening afresh lets that memory go.
    const creator = await PGlite.create(dataDir);
    await creator.close();
  }
  const settings = Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => [
    '-c',
    `${name}=${value}`,
  ]);
  return PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, ...settings],
  });
}
