// `npm run screen:new -- <screen-id> [--entity <entity-id>]`: a new CRUD screen as two JSON
// files under schemas/ (or DEPOT_SCHEMAS_DIR), stored by the schema engine. After a restart
// it lists, creates, edits, validates and deletes (docs/adding-a-screen.md).
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { SCHEMAS_DIR } from '../server/schemas/registry.ts';
import { scaffoldScreen } from '../server/schemas/scaffold.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { entity: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: npm run screen:new -- <screen-id> [--entity <entity-id>]');
  process.exit(2);
}
try {
  const dir = loadConfig().schemasDir ?? SCHEMAS_DIR;
  for (const file of await scaffoldScreen(dir, positionals[0]!, values.entity))
    console.log(`wrote ${file}`);
  console.log('Restart the server; npm run schemas:check checks the new files.');
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
