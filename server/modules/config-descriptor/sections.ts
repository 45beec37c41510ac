import type { RepositoryClass } from '../repositories/service.ts';
import { storedScreens } from '../entities/descriptors.ts';
import { isSingleDocument, type SchemaRegistry } from '../../schemas/registry.ts';

/** An engine-stored collection as the configuration document names it. */
export interface CollectionSection {
  kind: 'collection';
  /** The document's key for the section (`propertySets`) and one item's XML element. */
  name: string;
  item: string;
  entity: string;
  /** The field that names an item: its key in the section's map. */
  keyField: string;
  keyCase: 'sensitive' | 'insensitive';
}

/** An engine-stored settings document (mail, security, general). */
export interface SingleSection {
  kind: 'single';
  name: string;
  entity: string;
  settingsKey: string;
}

export interface RepositorySection {
  kind: 'repositories';
  name: string;
  item: string;
  rclass: RepositoryClass;
}

/**
 * Artifactory's descriptor names, where it has one, for the entities Depot's engine stores;
 * an entity added later and not named here still goes into the document, under its screen
 * id in camel case (`retention-policies` → `retentionPolicies`), so nothing is forgotten.
 */
const SECTION_NAMES: Record<string, { name: string; item?: string }> = {
  'repo-layout': { name: 'repoLayouts', item: 'repoLayout' },
  'property-set': { name: 'propertySets', item: 'propertySet' },
  proxy: { name: 'proxies', item: 'proxy' },
  webhook: { name: 'webhooks', item: 'webhook' },
  backup: { name: 'backups', item: 'backup' },
  'retention-policy': { name: 'retentionPolicies', item: 'retentionPolicy' },
  'mail-settings': { name: 'mailServer' },
  'security-settings': { name: 'security' },
  'general-settings': { name: 'general' },
};

export const REPOSITORY_SECTIONS: readonly RepositorySection[] = [
  { kind: 'repositories', name: 'localRepositories', item: 'localRepository', rclass: 'local' },
  { kind: 'repositories', name: 'remoteRepositories', item: 'remoteRepository', rclass: 'remote' },
  {
    kind: 'repositories',
    name: 'virtualRepositories',
    item: 'virtualRepository',
    rclass: 'virtual',
  },
];

export const MAINTENANCE_SECTION = 'maintenance';
/** Projects: each with its custom roles; written before the repositories that name them. */
export const PROJECTS_SECTION = 'projects';

const camelCase = (id: string) =>
  id.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The engine's sections, in descriptor order: layouts and proxies before what names them. */
export function engineSections(registry: SchemaRegistry): (CollectionSection | SingleSection)[] {
  return storedScreens(registry).map((screen) => {
    const named = SECTION_NAMES[screen.entity];
    const name = named?.name ?? camelCase(screen.id);
    if (isSingleDocument(screen))
      return {
        kind: 'single',
        name,
        entity: screen.entity,
        settingsKey: screen.store.settingsKey ?? screen.entity,
      };
    return {
      kind: 'collection',
      name,
      item: named?.item ?? name.replace(/ies$/, 'y').replace(/s$/, ''),
      entity: screen.entity,
      keyField: screen.key,
      keyCase: screen.store?.keyCase === 'insensitive' ? 'insensitive' : 'sensitive',
    };
  });
}
