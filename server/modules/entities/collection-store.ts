import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { CollectionDescriptor, JsonSchema } from '../../schemas/registry.ts';
import { auditEntry } from './audit.ts';
import { messagesOf } from './descriptors.ts';
import {
  deepMerge,
  documentDefaults,
  etagOf,
  fillMessage,
  type EntityDocument,
} from './documents.ts';
import type { Actor, EntityHooks } from './hooks.ts';
import {
  deleteDocuments,
  findDocument,
  findDocuments,
  insertAudit,
  insertDocument,
  listDocuments,
  replaceDocument,
  type ListQuery,
} from './queries.ts';
import { answerOf, secretFields, sealSecrets } from './secrets.ts';
import { updatedDocument, type Versioned } from './update.ts';

/**
 * What the store needs of a collection's descriptor. A feature whose calls the generic
 * routes cannot serve (license buckets: imported from signed files, at the spec's own paths)
 * keeps its documents in a store built from just this.
 */
export type StoredCollection = Pick<CollectionDescriptor, 'entity' | 'key' | 'store'> & {
  form?: Pick<CollectionDescriptor['form'], 'readOnlyOnEdit'>;
};

export interface CollectionStoreOptions {
  db: Database;
  box: SecretBox;
  screen: StoredCollection;
  entity: JsonSchema;
  hooks: () => EntityHooks;
}

/**
 * The documents of one engine-stored entity, each under its key: what the generic routes
 * serve, and what a feature's own code reads. Rules across documents (unique keys, fixed
 * documents, all-or-none deletes) are here; the body schema was checked by the route.
 */
export function createCollectionStore({ db, box, screen, entity, hooks }: CollectionStoreOptions) {
  const keyField = screen.key;
  const matchKey = (key: string) =>
    screen.store?.keyCase === 'insensitive' ? key.toLowerCase() : key;
  const messages = messagesOf(screen);
  const secrets = secretFields(entity);
  const defaults = documentDefaults(entity);
  const present = (stored: EntityDocument) =>
    answerOf(entity, secrets, deepMerge(defaults, stored));
  const versioned = (stored: EntityDocument): Versioned => ({
    document: present(stored),
    etag: etagOf(stored),
  });
  const fixedDocuments = () => hooks().fixed?.documents() ?? [];
  const fixedOne = (key: string) =>
    fixedDocuments().find((document) => matchKey(String(document[keyField])) === matchKey(key));
  const notFound = (key: string) =>
    new NotFound(fillMessage(messages.notFound, { key, [keyField]: key }));
  const exists = (key: string) =>
    new Conflict(fillMessage(messages.exists, { key, [keyField]: key }), keyField);
  const audited = (key: string, actor: Actor, before?: EntityDocument, after?: EntityDocument) =>
    auditEntry({ entity: screen.entity, key, actor }, secrets, before, after);

  /** Fixed documents first (as their hooks give them), then the stored page. */
  async function list(query: ListQuery) {
    const fixed = fixedDocuments().filter((document) => matches(document, query));
    const end = query.limit === undefined ? undefined : query.offset + query.limit;
    const fixedPage = fixed.slice(query.offset, end);
    const stored = await listDocuments(db, screen.entity, {
      ...query,
      offset: Math.max(0, query.offset - fixed.length),
      limit: query.limit === undefined ? undefined : query.limit - fixedPage.length,
    });
    const items = [...fixedPage, ...stored.rows.map((row) => row.document)].map(present);
    return { items, total: fixed.length + stored.total };
  }

  function matches(document: EntityDocument, query: ListQuery): boolean {
    const key = String(document[keyField]).toLowerCase();
    if (query.search && !key.includes(query.search.toLowerCase())) return false;
    return Object.entries(query.equals).every(
      ([field, value]) => String(document[field]) === value,
    );
  }

  /** The stored document, secrets sealed, or 404. */
  async function stored(key: string): Promise<EntityDocument> {
    const found = await findDocument(db, screen.entity, matchKey(key));
    if (!found) throw notFound(key);
    return found.document;
  }

  return {
    entity,
    list,
    stored,

    /** Whether a document of this key exists, fixed or stored. */
    async exists(key: string): Promise<boolean> {
      return (
        fixedOne(key) !== undefined ||
        (await findDocument(db, screen.entity, matchKey(key))) !== undefined
      );
    },

    async get(key: string): Promise<Versioned> {
      const fixed = fixedOne(key);
      return versioned(fixed ?? (await stored(key)));
    },

    async create(body: EntityDocument, actor: Actor): Promise<Versioned> {
      const key = String(body[keyField]);
      if (fixedOne(key)) throw exists(key);
      const given = withoutReadOnly(entity, body);
      const document =
        (await hooks().beforeWrite?.({ action: 'create', document: given, actor })) ?? given;
      const sealed = sealSecrets(secrets, document, body, undefined, box);
      try {
        await db.transaction().execute(async (tx) => {
          await insertDocument(tx, screen.entity, matchKey(key), key, sealed);
          await insertAudit(tx, [audited(key, actor, undefined, sealed)]);
        });
      } catch (error) {
        throw isUniqueViolation(error) ? exists(key) : error;
      }
      await hooks().afterWrite?.({ action: 'create', document, actor });
      return versioned(sealed);
    },

    /** Lays `body` over the stored document; `ifMatch` refuses it if that moved on. */
    async update(
      key: string,
      body: EntityDocument,
      actor: Actor,
      ifMatch?: string,
    ): Promise<Versioned> {
      if (fixedOne(key)) throw hooks().fixed!.refuseChange(key);
      const readOnlyOnEdit = [keyField, ...(screen.form?.readOnlyOnEdit ?? [])];
      const result = await updatedDocument({
        db,
        box,
        entity,
        secrets,
        hooks: hooks(),
        messages,
        readOnlyOnEdit,
        body,
        actor,
        ifMatch,
        read: async (tx, lock) =>
          (await findDocument(tx ?? db, screen.entity, matchKey(key), lock))?.document,
        missing: () => notFound(key),
        write: async (tx, before, after) => {
          await replaceDocument(tx, screen.entity, matchKey(key), after);
          await insertAudit(tx, [audited(String(before[keyField]), actor, before, after)]);
        },
      });
      return versioned(result);
    },

    /** Deletes documents, all or none: a fixed, unknown or refused one stops the lot. */
    async deleteMany(keys: string[], actor: Actor): Promise<string> {
      const unique = [...new Set(keys)];
      for (const key of unique) if (fixedOne(key)) throw hooks().fixed!.refuseChange(key);
      const found = await findDocuments(db, screen.entity, unique.map(matchKey));
      const missing = unique.find((key) => !found.some((row) => row.match_key === matchKey(key)));
      if (missing !== undefined) throw notFound(missing);
      await hooks().onDelete?.(
        found.map((row) => present(row.document)),
        actor,
      );
      await db.transaction().execute(async (tx) => {
        await deleteDocuments(
          tx,
          screen.entity,
          found.map((row) => row.match_key),
        );
        await insertAudit(
          tx,
          found.map((row) => audited(row.key, actor, row.document, undefined)),
        );
      });
      return fillMessage(messages.deleted, { count: unique.length });
    },
  };
}

export type CollectionStore = ReturnType<typeof createCollectionStore>;

/** The body without the read-only fields a form may send back (the server owns those). */
export function withoutReadOnly(entity: JsonSchema, body: EntityDocument): EntityDocument {
  const properties = entity.properties ?? {};
  return Object.fromEntries(
    Object.entries(body).filter(
      ([name]) => properties[name]?.readOnly !== true && properties[name]?.writeOnly !== true,
    ),
  );
}
