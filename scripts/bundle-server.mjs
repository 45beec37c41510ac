// Bundles the server into plain JavaScript with esbuild: `npm start` runs the bundle
// (scripts/prepare-start.mjs), and the tests that start Depot as a child process run one made
// fresh for their run (tests/helpers/server-bundle.ts). Plain JavaScript starts faster and
// lighter than compiling TypeScript at every start (npm run bench:startup measures it).
import { resolve } from 'node:path';
import { build } from 'esbuild';

const PROJECT_ROOT = resolve(import.meta.dirname, '..');

/** Writes main.mjs and the worker threads' entries into `outdir` (relative to the project). */
export async function bundleServer(outdir) {
  await build({
    absWorkingDir: PROJECT_ROOT,
    // Worker threads' modules are entries of their own: the embedded database, the merge of a
    // virtual npm repository's documents, and a backup's pack (server/workers/module-worker.ts finds them).
    entryPoints: {
      main: 'server/main.ts',
      'pglite-worker': 'server/db/pglite-worker.ts',
      'npm-merge-worker': 'server/formats/npm/npm-merge-worker.ts',
      'pack-worker': 'server/modules/backups/pack-worker.ts',
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}
