// `npm run schemas:check`: bundles the check (server/schemas/check-cli.ts and what it
// imports, the console's widget registry included) with esbuild and runs the bundle. One
// bundled module loads in a fraction of the time tsx takes to compile several hundred files
// one by one, which kept the check near 10 s of CPU. The bundle is kept and built again only
// when a file it was built from changed: bundling costs about half a second, and editing
// schemas/ (read at run time, never bundled) changes none of those files.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
// Inside node_modules, so that the bundle's external packages resolve from it.
const outdir = join(root, 'node_modules', '.cache', 'depot', 'schemas-check');
const bundle = join(outdir, 'check.mjs');
const inputsFile = join(outdir, 'inputs.json');

/** Whether the kept bundle is newer than every file it was built from, this script included. */
function bundleIsCurrent() {
  if (!existsSync(bundle) || !existsSync(inputsFile)) return false;
  const builtAt = statSync(bundle).mtimeMs;
  const inputs = [...JSON.parse(readFileSync(inputsFile, 'utf8')), 'scripts/schemas-check.mjs'];
  return inputs.every((input) => {
    const file = join(root, input);
    return existsSync(file) && statSync(file).mtimeMs < builtAt;
  });
}

async function buildBundle() {
  // Loaded only when a build is due: esbuild's own start is a tenth of a second.
  const { build } = await import('esbuild');
  mkdirSync(outdir, { recursive: true });
  const { metafile } = await build({
    stdin: {
      contents:
        "import { runSchemasCheck } from './server/schemas/check-cli.ts';\nprocess.exitCode = await runSchemasCheck();\n",
      resolveDir: root,
      sourcefile: 'schemas-check-entry.ts',
      loader: 'ts',
    },
    outfile: bundle,
    bundle: true,
    metafile: true,
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
  const inputs = Object.keys(metafile.inputs).filter((input) => !input.startsWith('<stdin>'));
  writeFileSync(inputsFile, JSON.stringify(inputs));
}

if (!bundleIsCurrent()) await buildBundle();
await import(pathToFileURL(bundle).href);
