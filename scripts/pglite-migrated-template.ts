// Run by scripts/pglite-template.mjs at `npm install`/`npm ci`, after the empty cluster is
// ready: copies it, applies Depot's migrations, and keeps the result beside it, named by the
// set of migrations. A first start copies this one when the names match (no DDL to run);
// otherwise it falls back to the empty cluster and migrates as usual.
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator } from 'kysely';
import { MIGRATIONS } from '../server/db/migrations/index.ts';
import { PGliteDialect } from '../server/db/pglite-dialect.ts';
import { emptyTemplateDir, migratedTemplateDir } from '../server/db/pglite-templates.ts';

const empty = emptyTemplateDir();
const target = migratedTemplateDir();
if (!empty || !target || !existsSync(join(empty, 'PG_VERSION'))) process.exit(0);
if (existsSync(join(target, 'PG_VERSION'))) process.exit(0);

const building = `${target}.building-${process.pid}`;
rmSync(building, { recursive: true, force: true });
cpSync(empty, building, { recursive: true });
const db = new Kysely({ dialect: new PGliteDialect(await PGlite.create(building)) });
const { error } = await new Migrator({
  db,
  provider: { getMigrations: async () => MIGRATIONS },
}).migrateToLatest();
await db.destroy();
if (error) {
  rmSync(building, { recursive: true, force: true });
  throw error;
}
rmSync(target, { recursive: true, force: true });
renameSync(building, target);
console.log('depot: prepared the migrated embedded database template');
