import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PROJECT_ROOT } from '../paths.ts';

/**
 * PostgreSQL's defaults are sized for a dedicated server (128 MB of shared buffers). Depot's
 * embedded mode should start in seconds on a laptop and idle small, so it asks for less;
 * a team that outgrows this runs PostgreSQL itself (DEPOT_DATABASE_URL). The operating
 * system's page cache still holds the data files, so small shared buffers cost little here.
 */
const EMBEDDED_SETTINGS = {
  shared_buffers: '8MB',
  work_mem: '4MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '4MB',
  wal_buffers: '1MB',
};

/** The empty cluster `npm install` prepared (scripts/pglite-template.mjs), if any. */
function templateCluster(): string | undefined {
  const pglitePackage = join(
    PROJECT_ROOT,
    'node_modules',
    '@electric-sql',
    'pglite',
    'package.json',
  );
  if (!existsSync(pglitePackage)) return undefined;
  const { version } = JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string };
  const template = join(PROJECT_ROOT, 'node_modules', '.cache', 'depot', `pglite-${version}`);
  return existsSync(join(template, 'PG_VERSION')) ? template : undefined;
}

async function createCluster(PGliteClass: typeof PGlite, dataDir: string) {
  const template = templateCluster();
  if (template) {
    cpSync(template, dataDir, { recursive: true });
    return;
  }
  // initdb runs in a WebAssembly instance of its own that the creating PGlite keeps
  // referenced (several hundred MB); closing it and opening afresh lets that memory go.
  const creator = await PGliteClass.create(dataDir);
  await creator.close();
}

/** Opens (creating on first start) the embedded database under `home/db`. */
export async function openPGlite(home: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = join(home, 'db');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await createCluster(PGlite, dataDir);
  const settings = Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => [
    '-c',
    `${name}=${value}`,
  ]);
  return PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, ...settings],
  });
}
