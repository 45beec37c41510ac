import type { Transaction } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import type { Services } from '../../services.ts';
import { createEntityStores } from '../entities/entity-stores.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import { createMaintenanceSettings } from '../maintenance/settings.ts';
import { createProxiesService, PROXY_ENTITY } from '../proxies/service.ts';
import { createKeyRulesCheck } from '../repositories/key-rules.ts';
import { createRepositoriesService } from '../repositories/service.ts';
import { createWebhooksService, WEBHOOK_ENTITY } from '../webhooks/service.ts';

export type Tx = Transaction<DepotDatabase>;

/**
 * The services a configuration change goes through, built on its one transaction. Every
 * check (a layout a repository names, a repository a webhook names) then sees the changes
 * made before it in the same document, and nothing waits for a second connection: on the
 * embedded database the transaction holds the only session.
 */
export function servicesIn(tx: Tx, services: Services, backupDirs: string[]) {
  const { schemas, secrets: box, catalogue } = services;
  const entities = createEntityStores({ db: tx, registry: schemas, box, services: () => hooks });
  const proxies = createProxiesService(tx, () => entities.collection(PROXY_ENTITY), box);
  const layouts = entities.collection('repo-layout');
  const repositories = createRepositoriesService(
    tx,
    catalogue,
    createKeyRulesCheck(() => schemas.entities.get('repository')!),
    undefined,
    box,
    (name) => layouts.exists(name),
    (key) => proxies.exists(key),
  );
  // The hooks read subscriptions and resume paused ones; they send nothing.
  const webhooks = createWebhooksService({
    db: tx,
    box,
    store: () => entities.collection(WEBHOOK_ENTITY),
    allowList: async () => [],
    proxyOf: async () => undefined,
    timeoutMs: 0,
    origin: async () => '',
  });
  const hooks: HookServices = { catalogue, repositories, webhooks, proxies, db: tx, backupDirs };
  return { hooks, repositories, maintenance: createMaintenanceSettings(tx) };
}

export type ScopedServices = ReturnType<typeof servicesIn>;
