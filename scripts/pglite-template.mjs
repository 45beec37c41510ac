// Runs at `npm install`/`npm ci` (postinstall): prepares an empty embedded-database cluster
// once per install, so that a first start copies it (milliseconds) instead of running
// initdb (seconds, and hundreds of MB of WebAssembly memory). The server falls back to
// initdb when the template is missing. The folder is keyed by PGlite's version, because a
// data directory belongs to the PostgreSQL build that made it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pglitePackage = join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
if (!existsSync(pglitePackage)) process.exit(0); // installed without dependencies

const { version } = JSON.parse(readFileSync(pglitePackage, 'utf8'));
const cacheDir = join(root, 'node_modules', '.cache', 'depot');
const template = join(cacheDir, `pglite-${version}`);
if (!existsSync(join(template, 'PG_VERSION'))) {
  const { PGlite } = await import('@electric-sql/pglite');
  const building = `${template}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const db = await PGlite.create(building);
  await db.close();
  rmSync(template, { recursive: true, force: true });
  renameSync(building, template);
  console.log(`depot: prepared the embedded database template (PGlite ${version})`);
}

// Then a copy with the migrations applied (TypeScript: run through tsx, a dependency).
const migrated = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'scripts', 'pglite-migrated-template.ts')],
  { cwd: root, stdio: 'inherit' },
);
if (migrated.status !== 0) console.warn('depot: no migrated template; first starts will migrate');
