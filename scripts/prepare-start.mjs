// `npm start` runs this first. It builds the console when dist/ui is missing or older than
// its sources (so a fresh clone serves /ui/ with no extra step), and bundles the server into
// dist/server/main.mjs (scripts/bundle-server.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleServer } from './bundle-server.mjs';

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

await bundleServer('dist/server');
