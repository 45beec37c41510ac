import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../../server/schemas/registry.ts';

/**
 * A copy of the project's schemas/ in a temp folder, for a test to add or break files in
 * and to start a server on (DEPOT_SCHEMAS_DIR). `remove` deletes it.
 */
export function copySchemas() {
  const root = mkdtempSync(join(tmpdir(), 'depot-schemas-'));
  const dir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, dir, { recursive: true });
  return {
    dir,
    write(path: string, value: unknown) {
      writeFileSync(
        join(dir, path),
        typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`,
      );
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
