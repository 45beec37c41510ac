import { Conflict } from '../../errors.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { EntityDescriptor, JsonSchema } from '../../schemas/registry.ts';
import { auditEntry } from '../entities/audit.ts';
import { createBody } from '../entities/body-schemas.ts';
import { withoutReadOnly } from '../entities/collection-store.ts';
import { messagesOf } from '../entities/descriptors.ts';
import {
  canonicalJson,
  deepMerge,
  documentDefaults,
  fillMessage,
  type EntityDocument,
} from '../entities/documents.ts';
import { ENTITY_HOOKS } from '../entities/hook-registry.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import {
  deleteDocuments,
  findDocument,
  insertAudit,
  insertDocument,
  lockSettings,
  replaceDocument,
  writeSettings,
} from '../entities/queries.ts';
import { sealSecrets, secretFields } from '../entities/secrets.ts';
import { pathOf, refusedAt, validateAgainst } from './field-errors.ts';
import type { ScopedServices, Tx } from './scoped-services.ts';
import { openedSecrets } from './sealed-secrets.ts';
import type { CollectionSection, SingleSection } from './sections.ts';

export type ChangeAction = 'create' | 'update' | 'delete';

export interface EntityWriterOptions {
  tx: Tx;
  box: SecretBox;
  scoped: ScopedServices;
  screen: EntityDescriptor;
  entity: JsonSchema;
  actor: string;
}

/**
 * Writes one engine entity's documents as its generic calls would: the create body schema
 * (defaults filled in), the feature's hooks, secrets sealed, the audit entry; only inside
 * the one transaction of a configuration change, and refusals named by their path.
 */
export function createEntityWriter({
  tx,
  box,
  scoped,
  screen,
  entity,
  actor,
}: EntityWriterOptions) {
  const secrets = secretFields(entity);
  const factory = screen.store?.hooks ? ENTITY_HOOKS[screen.store.hooks] : undefined;
  const hooks: EntityHooks = factory ? factory(() => scoped.hooks) : {};
  const messages = messagesOf(screen);
  const requiredOnCreate = 'requiredOnCreate' in screen.form ? screen.form.requiredOnCreate : [];
  const bodySchema = () => createBody(entity, requiredOnCreate);
  const withoutSecrets = (document: EntityDocument) =>
    Object.fromEntries(Object.entries(document).filter(([name]) => !secrets.includes(name)));

  /**
   * The document to store for `entry` (undefined when it is what `current` holds), and the
   * feature's after-write hook to run once it is written.
   */
  async function prepared(
    entry: EntityDocument,
    current: EntityDocument | undefined,
  ): Promise<{ next: EntityDocument; written: () => Promise<void> } | undefined> {
    const { plain, sealedAsGiven } = openedSecrets(box, secrets, entry);
    validateAgainst(`entity:${entity.$id}`, bodySchema, plain);
    const given = withoutReadOnly(entity, plain);
    const previous = current && withoutSecrets(current);
    const context = { action: current ? ('update' as const) : ('create' as const), actor };
    const document =
      (await hooks.beforeWrite?.({ ...context, document: given, previous })) ?? given;
    // The whole document says which secrets exist: one it leaves out is removed.
    const inputs: EntityDocument = { ...plain };
    for (const field of secrets) if (plain[field] === undefined) inputs[`${field}Set`] = false;
    const sealed = sealSecrets(secrets, document, inputs, current, box);
    for (const [field, value] of Object.entries(sealedAsGiven))
      if (sealed[field] !== current?.[field]) sealed[field] = value;
    if (current && canonicalJson(sealed) === canonicalJson(current)) return undefined;
    return {
      next: sealed,
      written: async () => void (await hooks.afterWrite?.({ ...context, document, previous })),
    };
  }

  const matchKey = (key: string) =>
    screen.store?.keyCase === 'insensitive' ? key.toLowerCase() : key;

  return {
    /** Creates or replaces the item `key` of a collection; undefined when nothing changed. */
    async upsert(section: CollectionSection, key: string, entry: EntityDocument) {
      return refusedAt(pathOf(section.name, key), async (): Promise<ChangeAction | undefined> => {
        const fixed = hooks.fixed
          ?.documents()
          .find((d) => matchKey(String(d[section.keyField])) === matchKey(key));
        if (fixed)
          throw new Conflict(
            fillMessage(messages.exists, { key, [section.keyField]: key }),
            section.keyField,
          );
        const current = (await findDocument(tx, section.entity, matchKey(key), true))?.document;
        const change = await prepared({ ...entry, [section.keyField]: key }, current);
        if (!change) return undefined;
        const { next } = change;
        if (current) await replaceDocument(tx, section.entity, matchKey(key), next);
        else await insertDocument(tx, section.entity, matchKey(key), key, next);
        await insertAudit(tx, [
          auditEntry({ entity: section.entity, key, actor }, secrets, current, next),
        ]);
        await change.written();
        return current ? 'update' : 'create';
      });
    },

    /** Deletes the item `key`, after the feature's own refusal (a proxy still in use). */
    async delete(section: CollectionSection, key: string): Promise<ChangeAction> {
      return refusedAt(pathOf(section.name, key), async (): Promise<ChangeAction> => {
        const stored = (await findDocument(tx, section.entity, matchKey(key), true))?.document;
        if (!stored) return 'delete';
        const defaults = documentDefaults(entity);
        await hooks.onDelete?.([withoutSecrets(deepMerge(defaults, stored))], actor);
        await deleteDocuments(tx, section.entity, [matchKey(key)]);
        await insertAudit(tx, [
          auditEntry({ entity: section.entity, key, actor }, secrets, stored, undefined),
        ]);
        return 'delete';
      });
    },

    /** Replaces a settings document; undefined when nothing changed. */
    async replace(section: SingleSection, entry: EntityDocument) {
      return refusedAt(section.name, async (): Promise<ChangeAction | undefined> => {
        const stored = await lockSettings(tx, section.settingsKey);
        const current = deepMerge(documentDefaults(entity), stored ?? {});
        const change = await prepared(entry, current);
        if (!change) return undefined;
        const { next } = change;
        await writeSettings(tx, section.settingsKey, next);
        await insertAudit(tx, [
          auditEntry(
            { entity: section.entity, key: section.settingsKey, actor },
            secrets,
            current,
            next,
          ),
        ]);
        await change.written();
        return 'update';
      });
    },
  };
}

export type EntityWriter = ReturnType<typeof createEntityWriter>;
