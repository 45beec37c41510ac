import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { Database } from '../../db/database.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { backupHooks } from '../backups/hooks.ts';
import { propertySetHooks } from '../property-sets/hooks.ts';
import { mailHooks } from '../mail/hooks.ts';
import { proxyHooks } from '../proxies/hooks.ts';
import type { ProxiesService } from '../proxies/service.ts';
import { repoLayoutHooks } from '../repositories/layout-hooks.ts';
import { retentionPolicyHooks } from '../retention/hooks.ts';
import { reverseProxyHooks } from '../reverse-proxy/hooks.ts';
import type { EntityHooks } from './hooks.ts';
import { webhookHooks } from '../webhooks/hooks.ts';
import type { WebhooksService } from '../webhooks/service.ts';

/** The services hooks may call. A feature whose hooks need another one adds it here. */
export interface HookServices {
  catalogue: Catalogue;
  repositories: RepositoriesService;
  webhooks: WebhooksService;
  proxies: ProxiesService;
  /** For rules that read other tables (a retention policy's runs before its delete). */
  db: Database;
  /** The directories backups may write to (DEPOT_BACKUP_DIRS). */
  backupDirs: string[];
}

/** Builds a feature's hooks; `services` is called when a hook runs, once all exist. */
export type HookFactory = (services: () => HookServices) => EntityHooks;

/**
 * The server behaviour descriptors may name with `store.hooks`. A feature adds its hooks
 * here, in its own module's file; schemas:check refuses a name that is not in this list.
 */
export const ENTITY_HOOKS: Record<string, HookFactory> = {
  backups: backupHooks,
  'property-sets': propertySetHooks,
  mail: mailHooks,
  proxies: proxyHooks,
  'repo-layouts': repoLayoutHooks,
  'retention-policies': retentionPolicyHooks,
  'reverse-proxy': reverseProxyHooks,
  webhooks: webhookHooks,
};
