import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from 'pino';
import { loadSchemaRegistry, type SchemaRegistry } from './registry.ts';

/** Editors write a file in several steps; one reload after they settle. */
const SETTLE_MS = 100;

export interface SchemaWatch {
  /** Resolves after the next reload (or refused reload): tests wait on it. */
  nextReload(): Promise<void>;
  close(): void;
}

/**
 * Development only (DEPOT_SCHEMAS_RELOAD): reloads `schemas/` whenever a file in it
 * changes, into the same registry the routes read, so that the console's next request
 * sees an edited descriptor or entity schema without a restart. A file that does not parse
 * mid-edit leaves the registry as it was and says why; the next save tries again. Routes
 * are registered at start: a new screen's own routes need a restart.
 */
export function watchSchemaRegistry(
  registry: SchemaRegistry,
  dir: string,
  logger: Pick<Logger, 'info' | 'warn'>,
): SchemaWatch {
  let timer: NodeJS.Timeout | undefined;
  let waiting: (() => void)[] = [];
  const reload = () => {
    timer = undefined;
    try {
      const fresh = loadSchemaRegistry(dir);
      replaceMap(registry.entities, fresh.entities);
      replaceMap(registry.screens, fresh.screens);
      replaceMap(registry.files, fresh.files);
      registry.screenMetaSchema = fresh.screenMetaSchema;
      logger.info(
        { screens: fresh.screens.size, entities: fresh.entities.size },
        'schemas reloaded',
      );
    } catch (error) {
      logger.warn({ err: error }, 'schemas not reloaded: the previous ones stay in use');
    }
    const settled = waiting;
    waiting = [];
    for (const resolve of settled) resolve();
  };
  const watcher: FSWatcher = watch(dir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(reload, SETTLE_MS);
  });
  return {
    nextReload: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

function replaceMap<K, V>(target: Map<K, V>, source: Map<K, V>): void {
  target.clear();
  for (const [key, value] of source) target.set(key, value);
}
