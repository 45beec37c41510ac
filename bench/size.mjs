// npm run size: the gzipped JavaScript (and CSS) each route of the console loads, read from
// the Vite build manifest. Goal (issue 2): the login route at most 200 KB of gzipped JS;
// AG Grid must load only on list screens. Run `npm run build` first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = 'dist/ui';
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const LOGIN_BUDGET_KB = 200;

/** What each route loads beyond the entry: the lazy modules its screen imports. */
const ROUTES = {
  login: [],
  'users list': ['src/engine/ScreenPage.tsx', 'src/engine/list/SchemaTable.tsx'],
  'user form': ['src/engine/ScreenPage.tsx', 'src/engine/form/FormScreen.tsx'],
  'repositories list': ['src/custom/repositories/RepositoriesListPage.tsx'],
  'repository form': ['src/custom/repositories/RepositoryFormPage.tsx'],
  'storage summary': [
    'src/custom/storage-summary/StorageSummaryPage.tsx',
    'src/custom/storage-summary/RepositoriesTable.tsx',
  ],
};

if (!existsSync(MANIFEST)) {
  console.error('No build manifest: run `npm run build` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);

/** The chunk keys a module needs before it runs: itself and its static imports, deeply. */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  if (!manifest[key]) throw new Error(`${key} is not in the build manifest`);
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(imported, seen);
  return seen;
}

const gzipKb = (file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length / 1024;

function routeSize(lazyModules) {
  const keys = new Set();
  for (const key of [entryKey, ...lazyModules]) staticClosure(key, keys);
  const js = [...keys].map((key) => manifest[key].file);
  const css = [...new Set([...keys].flatMap((key) => manifest[key].css ?? []))];
  return {
    js,
    jsKb: js.reduce((sum, file) => sum + gzipKb(file), 0),
    cssKb: css.reduce((sum, file) => sum + gzipKb(file), 0),
  };
}

const agGridChunk = manifest['src/engine/list/SchemaTable.tsx']?.file;
console.log('route'.padEnd(12), 'JS gz'.padStart(10), 'CSS gz'.padStart(9), ' chunks');
for (const [route, lazy] of Object.entries(ROUTES)) {
  const { js, jsKb, cssKb } = routeSize(lazy);
  console.log(
    route.padEnd(12),
    `${jsKb.toFixed(1)} KB`.padStart(10),
    `${cssKb.toFixed(1)} KB`.padStart(9),
    ` ${js.length}`,
  );
  if (route === 'login') {
    const verdict = jsKb <= LOGIN_BUDGET_KB ? 'OK' : 'OVER';
    console.log(
      `  login JS / budget ${LOGIN_BUDGET_KB} KB = ${(jsKb / LOGIN_BUDGET_KB).toFixed(2)} ${verdict}`,
    );
    console.log(
      `  AG Grid on the login route: ${js.includes(agGridChunk) ? 'YES (should not be)' : 'no'}`,
    );
  }
}
