import { schemasChanged } from './model';

/** The event the dev server's schemas watcher sends (vite.schemas-reload.ts). */
export const SCHEMAS_CHANGED_EVENT = 'depot:schemas-changed';

/**
 * In development (`npm run dev:ui`), an edit under schemas/ reloads the descriptors the
 * console shows, in place; the built console has no dev server and skips this.
 */
export function reloadSchemasOnChange(): void {
  import.meta.hot?.on(SCHEMAS_CHANGED_EVENT, () => schemasChanged());
}
