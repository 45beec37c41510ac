import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread running a module of Depot's. From the bundle (npm start) the module
 * is a second entry of scripts/prepare-start.mjs, `dist/server/{name}.mjs` beside main.mjs;
 * from the TypeScript sources (tsx, vitest) a two-line bootstrap registers tsx in the new
 * thread first, since Node 20 does not pass `--import` hooks on to workers.
 *
 * `callerUrl` is the calling module's `import.meta.url`: in the bundle that is main.mjs, in
 * the sources the caller's own file, beside which `{name}.ts` sits.
 */
export function startModuleWorker(
  callerUrl: string,
  name: string,
  options: { workerData?: unknown; resourceLimits?: ResourceLimits } = {},
): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, callerUrl), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, ...options });
}
