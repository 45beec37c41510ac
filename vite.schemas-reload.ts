import { resolve, sep } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';

/** What the console listens for (src/engine/descriptors/devReload.ts). */
const EVENT = 'depot:schemas-changed';
/**
 * Longer than the server's own settling (server/schemas/watch-registry.ts, 100 ms), so the
 * console asks after the server has read the edited files.
 */
const SETTLE_MS = 300;

/**
 * `npm run dev:ui`: when a file under `schemas/` changes, tells the open console to read
 * its descriptors again (the server, started with `npm run dev:server`, reloads them too),
 * instead of a full page reload that would lose what was typed.
 */
export function schemasReload(schemasDir = resolve('schemas')): Plugin {
  return {
    name: 'depot-schemas-reload',
    apply: 'serve',
    configureServer(server: Pick<ViteDevServer, 'watcher' | 'ws'>) {
      server.watcher.add(schemasDir);
      let timer: NodeJS.Timeout | undefined;
      const changed = (file: string) => {
        if (!resolve(file).startsWith(schemasDir + sep) || !file.endsWith('.json')) return;
        clearTimeout(timer);
        timer = setTimeout(() => server.ws.send({ type: 'custom', event: EVENT }), SETTLE_MS);
      };
      for (const kind of ['add', 'change', 'unlink'] as const) server.watcher.on(kind, changed);
    },
  };
}
