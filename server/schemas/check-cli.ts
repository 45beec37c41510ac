import { loadConfig } from '../config.ts';
import { checkSchemas, servableRegistry } from './check.ts';
import { consoleRegistries } from './console-registries.ts';
import { descriptorTypeProblems } from './descriptor-type-file.ts';
import { formatProblem } from './problems.ts';
import { readSchemaSources, SCHEMAS_DIR } from './registry.ts';
import { listServerRoutes } from './route-list.ts';

/**
 * `npm run schemas:check`: reads every schema and descriptor (the project's, or
 * DEPOT_SCHEMAS_DIR's), learns the server's routes without a database, resolves widgets and
 * components through the console's registries, and prints every problem as
 * `file#pointer: what was expected`. Exits 1 when there is one.
 */
export async function runSchemasCheck(): Promise<number> {
  const started = performance.now();
  const dir = loadConfig().schemasDir ?? SCHEMAS_DIR;
  const { registry, problems } = readSchemaSources(dir);
  const routes = await listServerRoutes(servableRegistry(registry));
  problems.push(...checkSchemas(registry, { routes, ...consoleRegistries() }));
  problems.push(...descriptorTypeProblems(registry.screenMetaSchema));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`schemas:check found ${problems.length} problem(s):`);
    for (const problem of problems) console.error(`  ${formatProblem(problem)}`);
    return 1;
  }
  console.log(
    `schemas:check: ${registry.entities.size} entities and ${registry.screens.size} screens are valid (${routes.length} server routes, ${seconds} s)`,
  );
  return 0;
}
