// `npm start` runs this first. It builds the console when dist/ui is missing or older than
// its sources (so a fresh clone serves /ui/ with no extra step), and bundles the server into
// dist/server/main.mjs: plain JavaScript starts faster and lighter than compiling TypeScript
// at every start (npm run bench:startup measures it).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const consoleIndex = 'dist/ui/index.html';
const consoleSources = ['src', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

const builtAt = existsSync(consoleIndex) ? statSync(consoleIndex).mtimeMs : 0;
if (builtAt === 0 || Math.max(...consoleSources.map(newestChange)) > builtAt) {
  console.log('Building the console (dist/ui)...');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await build({
  // Worker threads' modules are entries of their own: the embedded database, and the merge
  // of a virtual npm repository's documents (server/workers/module-worker.ts finds them).
  entryPoints: {
    main: 'server/main.ts',
    'pglite-worker': 'server/db/pglite-worker.ts',
    'npm-merge-worker': 'server/formats/npm/npm-merge-worker.ts',
  },
  outdir: 'dist/server',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
