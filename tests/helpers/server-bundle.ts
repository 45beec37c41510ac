import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain .mjs script without types
import { bundleServer } from '../../scripts/bundle-server.mjs';
import { PROJECT_ROOT } from '../../server/paths.ts';

/**
 * vitest's global setup for the files that start Depot as a child process
 * (tests/helpers/server-process.ts): bundles the server once per run, as `npm start` runs
 * it, so that each start loads plain JavaScript instead of compiling every TypeScript module
 * again (seconds of CPU per start). The bundle is made from the sources as they are when the
 * run begins, in a folder of this run's own, removed when the run ends.
 */
export default async function bundleForRun(project: TestProject): Promise<() => void> {
  // Projects of one run share the main process: the first one bundles, the others reuse it.
  // In watch mode the sources change under the run: children start from them instead.
  if (process.env.DEPOT_TEST_SERVER_BUNDLE || project.config.watch) return () => {};
  const outdir = join(PROJECT_ROOT, 'dist', 'test-server', String(process.pid));
  mkdirSync(outdir, { recursive: true });
  await bundleServer(outdir);
  process.env.DEPOT_TEST_SERVER_BUNDLE = join(outdir, 'main.mjs');
  return () => {
    delete process.env.DEPOT_TEST_SERVER_BUNDLE;
    rmSync(outdir, { recursive: true, force: true });
  };
}
