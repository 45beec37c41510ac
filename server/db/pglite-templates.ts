import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';
import { MIGRATIONS_KEY } from './migrations/index.ts';

// The prepared clusters a new embedded database starts as a copy of. Apart from
// pglite-open.ts because naming the migrated one loads every migration (and Kysely): the
// main thread has them already, the database's own thread need not load them again (which
// took it a second or more of every start from the sources).

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

/** The clusters a new embedded database may copy, best first (openPGlite's `templates`). */
export function clusterTemplates(): string[] {
  return [migratedTemplateDir(), emptyTemplateDir()].filter((dir) => dir !== undefined);
}
