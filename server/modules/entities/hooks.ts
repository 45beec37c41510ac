import type { DepotError } from '../../errors.ts';
import type { EntityDocument } from './documents.ts';

/** Who made a change, for the audit trail: a user's name, or `system` for Depot itself. */
export type Actor = string;

export interface WriteContext {
  action: 'create' | 'update';
  /** The document as it will be stored, defaults filled in, secrets not yet sealed. */
  document: EntityDocument;
  /** What was stored before an update. */
  previous?: EntityDocument;
  /**
   * An update's secrets that keep their stored value (the body gives none and does not clear
   * them): a hook refuses them where they would go somewhere new (a webhook's changed URL).
   */
  keptSecrets?: string[];
  actor: Actor;
}

/**
 * What a feature adds to an engine-stored entity without re-implementing its CRUD
 * (docs/adding-a-screen.md, "Server behaviour"). A descriptor names its hooks with
 * `store.hooks`; the names are registered in `hook-registry.ts`. Every hook is optional.
 */
export interface EntityHooks {
  /**
   * Documents that exist without being stored (built-in ones): listed before the stored
   * ones, readable, and never changed or deleted; `refuseChange` says why not.
   */
  fixed?: {
    documents(): EntityDocument[];
    refuseChange(key: string): DepotError;
  };
  /**
   * Before a create or an update is stored: refuse it with a typed error (a rule across
   * fields or items), or answer the document to store instead (normalized).
   */
  beforeWrite?(context: WriteContext): EntityDocument | void | Promise<EntityDocument | void>;
  /** After a create or an update was stored (to reschedule a job, say). */
  afterWrite?(context: WriteContext): void | Promise<void>;
  /** Before documents are deleted, all or none: refuse with a typed error to keep them all. */
  onDelete?(documents: EntityDocument[], actor: Actor): void | Promise<void>;
}
