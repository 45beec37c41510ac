import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { JsonSchema, SingleDocumentDescriptor } from '../../schemas/registry.ts';
import { auditEntry } from './audit.ts';
import { messagesOf } from './descriptors.ts';
import { deepMerge, documentDefaults, etagOf, type EntityDocument } from './documents.ts';
import type { Actor, EntityHooks } from './hooks.ts';
import { insertAudit, lockSettings, readSettings, writeSettings } from './queries.ts';
import { answerOf, openSecrets, secretFields } from './secrets.ts';
import { updatedDocument, type Versioned } from './update.ts';

export interface SingleStoreOptions {
  db: Database;
  box: SecretBox;
  screen: SingleDocumentDescriptor;
  entity: JsonSchema;
  hooks: () => EntityHooks;
}

/**
 * One settings document of an engine-stored entity (mail, security, general settings), kept
 * in the `settings` table under `store.settingsKey`. Until it is saved it reads as the
 * schema's defaults; what is saved is read over the defaults, so a default added later shows.
 */
export function createSingleStore({ db, box, screen, entity, hooks }: SingleStoreOptions) {
  const name = screen.store.settingsKey ?? screen.entity;
  const secrets = secretFields(entity);
  const defaults = documentDefaults(entity);
  const effective = (stored: EntityDocument | undefined) => deepMerge(defaults, stored ?? {});

  /** The document as stored (secrets sealed), over the defaults. */
  async function read(): Promise<EntityDocument> {
    return effective(await readSettings(db, name));
  }

  return {
    entity,
    read,

    /** The document with its secrets opened, for the feature that uses them. */
    async opened(): Promise<EntityDocument> {
      return openSecrets(secrets, await read(), box);
    },

    async get(): Promise<Versioned> {
      const stored = await read();
      return { document: answerOf(entity, secrets, stored), etag: etagOf(stored) };
    },

    async update(body: EntityDocument, actor: Actor, ifMatch?: string): Promise<Versioned> {
      const stored = await updatedDocument({
        db,
        box,
        entity,
        secrets,
        hooks: hooks(),
        messages: messagesOf(screen),
        readOnlyOnEdit: screen.form.readOnlyOnEdit ?? [],
        body,
        actor,
        ifMatch,
        read: async (tx, lock) =>
          effective(lock ? await lockSettings(tx ?? db, name) : await readSettings(tx ?? db, name)),
        missing: () => new Error(`settings '${name}' vanished`),
        write: async (tx, before, after) => {
          await writeSettings(tx, name, after);
          await insertAudit(tx, [
            auditEntry({ entity: screen.entity, key: name, actor }, secrets, before, after),
          ]);
        },
      });
      return { document: answerOf(entity, secrets, stored), etag: etagOf(stored) };
    },
  };
}

export type SingleStore = ReturnType<typeof createSingleStore>;
