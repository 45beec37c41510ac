// `npm run schemas:check`: bundles the check (server/schemas/check-cli.ts and what it
// imports, the console's widget registry included) with esbuild and runs the bundle. One
// bundled module loads in a fraction of the time tsx takes to compile several hundred files
// one by one, which kept the check near 10 s of CPU.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
// Inside node_modules, so that the bundle's external packages resolve from it.
const outdir = join(root, 'node_modules', '.cache', 'depot', 'schemas-check');
mkdirSync(outdir, { recursive: true });
await build({
  stdin: {
    contents:
      "import { runSchemasCheck } from './server/schemas/check-cli.ts';\nprocess.exitCode = await runSchemasCheck();\n",
    resolveDir: root,
    sourcefile: 'schemas-check-entry.ts',
    loader: 'ts',
  },
  outfile: join(outdir, 'check.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  // The console's registries import their styles; the check needs none of them.
  loader: { '.css': 'empty' },
  // The screen registry loads each bespoke page lazily; the check reads its names and never
  // loads a page, so those imports stay out of the bundle.
  plugins: [
    {
      name: 'lazy-pages-external',
      setup(build) {
        build.onResolve({ filter: /.*/ }, (args) =>
          args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
        );
      },
    },
  ],
  logLevel: 'warning',
});
await import(pathToFileURL(join(outdir, 'check.mjs')).href);
