import type { Kysely } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { JsonSchema, SchemaRegistry } from '../../schemas/registry.ts';
import { deepMerge, documentDefaults, type EntityDocument } from '../entities/documents.ts';
import { listDocuments, readSettings } from '../entities/queries.ts';
import type { MaintenanceSettings } from '../maintenance/settings.ts';
import { toRepositoryConfig } from '../repositories/service.ts';
import { TRASH_REPO_KEY } from '../trash/trash-key.ts';
import { readProjects } from './project-writes.ts';
import { repositoryRows } from './queries.ts';
import {
  engineSections,
  MAINTENANCE_SECTION,
  PROJECTS_SECTION,
  REPOSITORY_SECTIONS,
  type CollectionSection,
  type SingleSection,
} from './sections.ts';

/** Every setting of a Depot as one document: section name → settings or items by key. */
export type ConfigurationDocument = Record<string, unknown>;

export interface ReadContext {
  db: Kysely<DepotDatabase>;
  registry: SchemaRegistry;
  catalogue: Catalogue;
  maintenance: () => Promise<MaintenanceSettings>;
}

/**
 * A stored document as the configuration carries it: the schema's properties only, over
 * its defaults, without what the server owns (`readOnly`: `builtIn`, `passwordSet`, ...).
 * Secrets stay as stored, sealed with the master key.
 */
export function portable(
  entity: JsonSchema,
  stored: EntityDocument,
  omit?: string,
  withDefaults = true,
) {
  const document = withDefaults ? deepMerge(documentDefaults(entity), stored) : stored;
  const portableDocument: EntityDocument = {};
  for (const [name, property] of Object.entries(entity.properties ?? {})) {
    if (property.readOnly === true || name === omit) continue;
    if (document[name] !== undefined) portableDocument[name] = document[name];
  }
  return portableDocument;
}

const byKey = (entries: [string, unknown][]) =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

async function readCollection(context: ReadContext, section: CollectionSection) {
  const entity = context.registry.entities.get(section.entity)!;
  const { rows } = await listDocuments(context.db, section.entity, {
    offset: 0,
    descending: false,
    equals: {},
  });
  return byKey(
    rows.map((row) => [
      String(row.document[section.keyField] ?? row.key),
      portable(entity, row.document, section.keyField),
    ]),
  );
}

async function readSingle(context: ReadContext, section: SingleSection) {
  const entity = context.registry.entities.get(section.entity)!;
  return portable(entity, (await readSettings(context.db, section.settingsKey)) ?? {});
}

/**
 * The repositories an admin configures: not the trash can, nor Depot's own ones of a type
 * nobody creates by hand (build info), which Depot makes when it needs them.
 */
async function readRepositories(context: ReadContext) {
  const entity = context.registry.entities.get('repository')!;
  const sections = Object.fromEntries(
    REPOSITORY_SECTIONS.map((section) => [section.name, [] as [string, unknown][]]),
  );
  for (const row of await repositoryRows(context.db)) {
    if (row.key === TRASH_REPO_KEY) continue;
    if (!context.catalogue.allowedRepoTypes(row.package_type)?.includes(row.rclass)) continue;
    const config = toRepositoryConfig(row) as unknown as EntityDocument;
    const document = portable(entity, config, 'key', false);
    delete document.rclass;
    const sealed = (row.config as { password?: unknown }).password;
    if (typeof sealed === 'string') document.password = sealed;
    const section = REPOSITORY_SECTIONS.find((candidate) => candidate.rclass === row.rclass)!;
    sections[section.name]!.push([row.key, document]);
  }
  return Object.fromEntries(Object.entries(sections).map(([name, items]) => [name, byKey(items)]));
}

/**
 * Reads every setting into one document (docs/config-as-code.md): projects, repositories
 * with their whole configuration, then each engine-stored entity, then maintenance. Users, groups,
 * permissions, tokens and content are not configuration and are not in it.
 */
export async function readConfiguration(context: ReadContext): Promise<ConfigurationDocument> {
  const document: ConfigurationDocument = {
    [PROJECTS_SECTION]: await readProjects(context.db),
    ...(await readRepositories(context)),
  };
  for (const section of engineSections(context.registry))
    document[section.name] =
      section.kind === 'single'
        ? await readSingle(context, section)
        : await readCollection(context, section);
  document[MAINTENANCE_SECTION] = { ...(await context.maintenance()) };
  return document;
}
