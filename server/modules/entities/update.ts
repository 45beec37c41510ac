import type { Transaction } from 'kysely';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest, PreconditionFailed } from '../../errors.ts';
import type { JsonSchema } from '../../schemas/registry.ts';
import { withoutReadOnly } from './collection-store.ts';
import type { messagesOf } from './descriptors.ts';
import { canonicalJson, deepMerge, etagOf, fillMessage, type EntityDocument } from './documents.ts';
import type { Actor, EntityHooks } from './hooks.ts';
import { sealSecrets } from './secrets.ts';

/** A document as answered, with the entity tag of what is stored. */
export interface Versioned {
  document: EntityDocument;
  etag: string;
}

type Tx = Transaction<DepotDatabase>;

export interface UpdateOptions {
  db: Database;
  box: SecretBox;
  entity: JsonSchema;
  secrets: string[];
  hooks: EntityHooks;
  messages: ReturnType<typeof messagesOf>;
  /** Fields an update may repeat but not change. */
  readOnlyOnEdit: string[];
  body: EntityDocument;
  actor: Actor;
  /** The request's If-Match: the tag of the version the caller read. */
  ifMatch?: string;
  /** The stored document (secrets sealed), locked for update when `lock`. */
  read(tx: Tx | undefined, lock: boolean): Promise<EntityDocument | undefined>;
  missing(): Error;
  write(tx: Tx, before: EntityDocument, after: EntityDocument): Promise<void>;
}

/** Whether an If-Match header names this tag (or `*`, any version). */
export function ifMatchAccepts(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

const omit = (document: EntityDocument, fields: string[]) =>
  Object.fromEntries(Object.entries(document).filter(([name]) => !fields.includes(name)));

function refuseReadOnlyChanges(options: UpdateOptions, current: EntityDocument): void {
  for (const field of options.readOnlyOnEdit) {
    const given = options.body[field];
    if (given === undefined || canonicalJson(given) === canonicalJson(current[field])) continue;
    const title = options.entity.properties?.[field]?.title ?? field;
    throw new BadRequest(fillMessage(options.messages.readOnlyOnEdit, { field: title }), field);
  }
}

/** The secrets an update leaves as stored: the body gives no new value and does not clear them. */
const secretsKept = (secrets: string[], body: EntityDocument, current: EntityDocument) =>
  secrets.filter(
    (field) =>
      current[field] !== undefined &&
      (typeof body[field] !== 'string' || body[field] === '') &&
      body[`${field}Set`] !== false,
  );

/**
 * An update of one stored document: the body laid over it, the feature's hooks, secrets
 * sealed or kept, then written with its audit entry only if the document read is still the
 * one stored (checked under a row lock). Hooks run outside the transaction: on the embedded
 * database a transaction holds the only session, and a hook's own query would wait on it.
 * A caller who sent If-Match hears 412 when the document moved on; one who did not gets the
 * update laid over the newer document.
 */
export async function updatedDocument(options: UpdateOptions): Promise<EntityDocument> {
  const { secrets, hooks, actor } = options;
  for (let attempt = 1; ; attempt++) {
    const current = await options.read(undefined, false);
    if (!current) throw options.missing();
    if (options.ifMatch !== undefined && !ifMatchAccepts(options.ifMatch, etagOf(current)))
      throw new PreconditionFailed(options.messages.stale);
    refuseReadOnlyChanges(options, current);
    const previous = omit(current, secrets);
    const merged = deepMerge(previous, withoutReadOnly(options.entity, options.body));
    const keptSecrets = secretsKept(secrets, options.body, current);
    const context = { action: 'update' as const, document: merged, previous, keptSecrets, actor };
    const document = (await hooks.beforeWrite?.(context)) ?? merged;
    const next = sealSecrets(secrets, document, options.body, current, options.box);
    if (canonicalJson(next) === canonicalJson(current)) return current;
    const written = await options.db.transaction().execute(async (tx) => {
      const locked = await options.read(tx, true);
      if (!locked) throw options.missing();
      if (canonicalJson(locked) !== canonicalJson(current)) return false;
      await options.write(tx, current, next);
      return true;
    });
    if (written) {
      await hooks.afterWrite?.({ ...context, document });
      return next;
    }
    if (options.ifMatch !== undefined || attempt >= 3)
      throw new PreconditionFailed(options.messages.stale);
  }
}
