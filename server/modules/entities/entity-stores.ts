import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import { isSingleDocument, type SchemaRegistry } from '../../schemas/registry.ts';
import { createCollectionStore, type CollectionStore } from './collection-store.ts';
import { storedScreens } from './descriptors.ts';
import { ENTITY_HOOKS, type HookServices } from './hook-registry.ts';
import type { EntityHooks } from './hooks.ts';
import { listAudit } from './queries.ts';
import { createSingleStore, type SingleStore } from './single-store.ts';

/** Hooks built on first use, when every service they may call exists. */
function lazyHooks(name: string | undefined, services: () => HookServices): () => EntityHooks {
  if (name === undefined) return () => ({});
  const factory = ENTITY_HOOKS[name];
  if (!factory) throw new Error(`No entity hooks named "${name}" are registered`);
  let built: EntityHooks | undefined;
  return () => (built ??= factory(services));
}

/**
 * The schema engine's stores, one per entity a descriptor stores: `collection(id)` for
 * documents under keys, `single(id)` for one settings document. Features read their
 * documents through these; the generic routes serve them.
 */
export function createEntityStores(options: {
  db: Database;
  registry: SchemaRegistry;
  box: SecretBox;
  services: () => HookServices;
}) {
  const { db, registry, box, services } = options;
  const collections = new Map<string, CollectionStore>();
  const singles = new Map<string, SingleStore>();
  for (const screen of storedScreens(registry)) {
    const entity = registry.entities.get(screen.entity);
    if (!entity)
      throw new Error(`Screen '${screen.id}' stores an unknown entity '${screen.entity}'`);
    const hooks = lazyHooks(screen.store?.hooks, services);
    if (isSingleDocument(screen))
      singles.set(screen.entity, createSingleStore({ db, box, screen, entity, hooks }));
    else collections.set(screen.entity, createCollectionStore({ db, box, screen, entity, hooks }));
  }
  const lookup = <T>(stores: Map<string, T>, id: string, kind: string): T => {
    const store = stores.get(id);
    if (!store) throw new Error(`No descriptor stores '${id}' as ${kind}`);
    return store;
  };
  return {
    collection: (entity: string) => lookup(collections, entity, 'a collection'),
    single: (entity: string) => lookup(singles, entity, 'a single document'),
    /** An entity's audit trail, newest first; one document's when `key` is given. */
    audit: (entity: string, key?: string) => listAudit(db, entity, key),
  };
}

export type EntityStores = ReturnType<typeof createEntityStores>;
