import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

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

const usable = (dir: string) => existsSync(join(dir, 'PG_VERSION'));

async function createCluster(PGliteClass: typeof PGlite, dataDir: string, templates: string[]) {
  // A migrated copy saves the first start its migrations (a second or so of DDL); an empty
  // one saves initdb. Migrations run at start either way and apply whatever is missing.
  const template = templates.find(usable);
  if (template) {
    cpSync(template, dataDir, { recursive: true });
    return;
  }
  // initdb runs in a WebAssembly instance of its own that the creating PGlite keeps
  // referenced (several hundred MB); closing it and opening afresh lets that memory go.
  const creator = await PGliteClass.create(dataDir);
  await creator.close();
}

/**
 * Opens (creating on first start) the embedded database under `home/db`. `onStderr` sees
 * PostgreSQL's log lines, which PGlite otherwise drops. A new database starts as a copy of
 * the first usable of `templates` (clusterTemplates() in pglite-templates.ts, which the
 * caller passes: the database's thread then never loads the migrations to name them).
 */
export async function openPGlite(
  home: string,
  options: { onStderr?: (line: string) => boolean; templates: string[] },
): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = join(home, 'db');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(dataDir, 'PG_VERSION')))
    await createCluster(PGlite, dataDir, options.templates);
  const settings = Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => [
    '-c',
    `${name}=${value}`,
  ]);
  return PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, ...settings],
    onStderr: options.onStderr,
  });
}
