import type { SecretBox } from '../../crypto/secret-box.ts';
import { Conflict } from '../../errors.ts';
import { createBodySchema, type JsonSchema } from '../../schemas/registry.ts';
import { auditEntry } from '../entities/audit.ts';
import { canonicalJson, type EntityDocument } from '../entities/documents.ts';
import { insertAudit } from '../entities/queries.ts';
import type { RepositoryConfig } from '../repositories/service.ts';
import type { ChangeAction } from './entity-writes.ts';
import { pathOf, refusedAt, validateAgainst } from './field-errors.ts';
import { deleteRepositoryRow, itemsIn, keepSealedPassword } from './queries.ts';
import type { ScopedServices, Tx } from './scoped-services.ts';
import { openedSecrets } from './sealed-secrets.ts';
import type { RepositorySection } from './sections.ts';

export const NOT_EMPTY_MESSAGE = (key: string, items: number) =>
  `Repository '${key}' holds ${items} item(s): the configuration does not delete content; delete the repository itself to remove it`;

const SECRETS = ['password'];

export interface RepositoryWriterOptions {
  tx: Tx;
  box: SecretBox;
  scoped: ScopedServices;
  entity: JsonSchema;
  actor: string;
}

/**
 * Writes repositories as the REST API does (its body schema, then the repositories service
 * with every rule it checks), inside the configuration change's transaction.
 */
export function createRepositoryWriter({
  tx,
  box,
  scoped,
  entity,
  actor,
}: RepositoryWriterOptions) {
  const { repositories } = scoped;
  const bodySchema = () => createBodySchema(entity);

  return {
    /** Creates or updates the repository `key`; undefined when it already reads as `entry`. */
    async upsert(
      section: RepositorySection,
      key: string,
      entry: EntityDocument,
      current: EntityDocument | undefined,
    ): Promise<ChangeAction | undefined> {
      if (current && canonicalJson(entry) === canonicalJson(current)) return undefined;
      return refusedAt(pathOf(section.name, key), async () => {
        const { plain, sealedAsGiven } = openedSecrets(box, SECRETS, entry);
        const body = { ...plain, key, rclass: section.rclass };
        validateAgainst('repository', bodySchema, body);
        const config = body as unknown as RepositoryConfig;
        const exists = (await repositories.findRow(key)) !== undefined;
        // The whole entry says whether an upstream password exists: none given removes it.
        if (section.rclass === 'remote') config.password ??= '';
        if (exists) await repositories.update(key, config);
        else await repositories.create(config);
        const row = (await repositories.findRow(key))!;
        const stored = (row.config as { password?: unknown }).password;
        if (sealedAsGiven.password && stored !== current?.password)
          await keepSealedPassword(tx, row.id, sealedAsGiven.password);
        await insertAudit(tx, [
          auditEntry({ entity: 'repository', key: row.key, actor }, SECRETS, current, entry),
        ]);
        return exists ? 'update' : 'create';
      });
    },

    /** Deletes an empty repository; one that holds anything is refused (content stays). */
    async delete(section: RepositorySection, key: string): Promise<ChangeAction> {
      return refusedAt(pathOf(section.name, key), async (): Promise<ChangeAction> => {
        const row = await repositories.findRow(key);
        if (!row) return 'delete';
        const items = await itemsIn(tx, row.id);
        if (items > 0) throw new Conflict(NOT_EMPTY_MESSAGE(row.key, items));
        await deleteRepositoryRow(tx, row.id);
        await insertAudit(tx, [
          auditEntry({ entity: 'repository', key: row.key, actor }, SECRETS, {}, undefined),
        ]);
        return 'delete';
      });
    },
  };
}

export type RepositoryWriter = ReturnType<typeof createRepositoryWriter>;
