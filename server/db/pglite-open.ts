import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PROJECT_ROOT } from '../paths.ts';
import { MIGRATIONS_KEY } from './migrations/index.ts';

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

/** Where `npm install` keeps its prepared clusters: keyed by PGlite's version, which made them. */
function templateRoot(): string | undefined {
  const pglitePackage = join(
    PROJECT_ROOT,
    'node_modules',
    '@electric-sql',
    'pglite',
    'package.json',
  );
  if (!existsSync(pglitePackage)) return undefined;
  const { version } = JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string };
  return join(PROJECT_ROOT, 'node_modules', '.cache', 'depot', `pglite-${version}`);
}

/** The empty cluster (scripts/pglite-template.mjs). */
export const emptyTemplateDir = () => templateRoot();

/** The cluster with today's migrations applied (scripts/pglite-migrated-template.ts). */
export function migratedTemplateDir(): string | undefined {
  const root = templateRoot();
  return root && `${root}-migrated-${MIGRATIONS_KEY}`;
}

const usable = (dir: string | undefined) =>
  dir && existsSync(join(dir, 'PG_VERSION')) ? dir : undefined;

async function createCluster(PGliteClass: typeof PGlite, dataDir: string) {
  // A migrated copy saves the first start its migrations (a second or so of DDL); an empty
  // one saves initdb. Migrations run at start either way and apply whatever is missing.
  const template = usable(migratedTemplateDir()) ?? usable(emptyTemplateDir());
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
 * PostgreSQL's log lines, which PGlite otherwise drops.
 */
export async function openPGlite(
  home: string,
  options: { onStderr?: (line: string) => boolean } = {},
): Promise<PGlite> {
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
    onStderr: options.onStderr,
  });
}
