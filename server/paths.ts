import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project folder (where package.json and schemas/ are), found by walking up from this
 * module: the same answer whether the server runs from its TypeScript sources or from the
 * bundle `npm start` builds into dist/server/.
 */
function findProjectRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'schemas'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Depot's project folder was not found above ${from}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);
