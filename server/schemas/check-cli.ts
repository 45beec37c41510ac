import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { checkSchemas } from './check.ts';
import { loadSchemaRegistry } from './registry.ts';

/** `npm run schemas:check`: builds a throwaway server to learn its routes, then checks. */
async function main() {
  const registry = loadSchemaRegistry();
  const home = mkdtempSync(join(tmpdir(), 'depot-schemas-check-'));
  const config = loadConfig({
    DEPOT_HOME: home,
    DEPOT_ADMIN_PASSWORD: 'schemas-check-only',
    DEPOT_LOG_STDOUT: 'false',
  });
  const { app } = await buildApp(config, pino({ level: 'silent' }));
  await app.ready();
  const problems = checkSchemas(registry, app.routeCatalog);
  await app.close();
  rmSync(home, { recursive: true, force: true });

  if (problems.length > 0) {
    console.error(`schemas:check found ${problems.length} problem(s):`);
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exit(1);
  }
  console.log(
    `schemas:check: ${registry.entities.size} entities and ${registry.screens.size} screens are valid`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
