import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { canonicalJson, type EntityDocument } from '../entities/documents.ts';
import { insertAudit } from '../entities/queries.ts';
import { DEFAULT_MAINTENANCE, type MaintenanceSettings } from '../maintenance/settings.ts';
import { createEntityWriter, type ChangeAction } from './entity-writes.ts';
import { pathOf, refusedAt, validateAgainst } from './field-errors.ts';
import { maintenanceSettingsSchema } from '../maintenance/settings-schema.ts';
import { readConfiguration, type ConfigurationDocument } from './read-configuration.ts';
import { createProjectWriter } from './project-writes.ts';
import { holdConfigurationLock } from './queries.ts';
import { createRepositoryWriter } from './repository-writes.ts';
import { servicesIn, type Tx } from './scoped-services.ts';
import {
  engineSections,
  MAINTENANCE_SECTION,
  PROJECTS_SECTION,
  REPOSITORY_SECTIONS,
  type CollectionSection,
  type RepositorySection,
  type SingleSection,
} from './sections.ts';
import { CONFIG_MESSAGES as M } from './messages.ts';

export interface ConfigurationChange {
  path: string;
  action: ChangeAction;
}

export interface ApplyOptions {
  actor: string;
  /** Check everything and tell what would change, then write nothing. */
  dryRun: boolean;
}

export interface ApplyDependencies {
  services: Services;
  backupDirs: string[];
}

/** Entities repositories name (a layout, a proxy): written before them, deleted after. */
const BEFORE_REPOSITORIES = new Set(['repo-layout', 'property-set', 'proxy']);
/** Settings documents that name repositories (the reverse proxy's ports): written after them. */
const SETTINGS_AFTER_REPOSITORIES = new Set(['reverse-proxy']);

/** Thrown to roll a dry run's transaction back once everything in it was checked. */
class DryRunDone extends Error {
  constructor(readonly changes: ConfigurationChange[]) {
    super('dry run');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Section =
  | CollectionSection
  | SingleSection
  | RepositorySection
  | { kind: 'maintenance' | 'projects'; name: string };

/** The sections the document names, each checked to be a map; an unknown one is refused. */
function sectionsOf(document: ConfigurationDocument, known: Section[]): Section[] {
  if (!isObject(document)) throw new BadRequest(M.notADocument);
  for (const name of Object.keys(document)) {
    if (!known.some((section) => section.name === name))
      throw new BadRequest(`${name}: ${M.unknownSection(known.map((s) => s.name))}`, name);
    if (!isObject(document[name])) throw new BadRequest(`${name}: ${M.notAMap}`, name);
  }
  return known.filter((section) => section.name in document);
}

/** Each item of a collection section must be a map of its fields; keys are unique. */
function itemsOf(document: ConfigurationDocument, name: string, caseless: boolean) {
  const items = document[name] as Record<string, unknown>;
  const seen = new Set<string>();
  for (const [key, item] of Object.entries(items)) {
    const path = pathOf(name, key);
    if (!isObject(item)) throw new BadRequest(`${path}: ${M.notAMap}`, path);
    const match = caseless ? key.toLowerCase() : key;
    if (seen.has(match)) throw new BadRequest(`${path}: ${M.duplicateKey}`, path);
    seen.add(match);
  }
  return items as Record<string, EntityDocument>;
}

const removed = (
  current: Record<string, unknown>,
  wanted: Record<string, unknown>,
  caseless: boolean,
) => {
  const norm = (key: string) => (caseless ? key.toLowerCase() : key);
  const kept = new Set(Object.keys(wanted).map(norm));
  return Object.keys(current).filter((key) => !kept.has(norm(key)));
};

/**
 * Applies a configuration document (docs/config-as-code.md): each section it names is made
 * to read as given (items it leaves out are deleted), sections it does not name are left
 * alone. Everything goes through the checks and write paths the console's and REST's calls
 * use, in one transaction: one refusal and nothing is written. Answers what changed (or,
 * in a dry run, what would have).
 */
export async function applyConfiguration(
  { services, backupDirs }: ApplyDependencies,
  document: ConfigurationDocument,
  { actor, dryRun }: ApplyOptions,
): Promise<ConfigurationChange[]> {
  const engine = engineSections(services.schemas);
  const known: Section[] = [
    { kind: 'projects', name: PROJECTS_SECTION },
    ...REPOSITORY_SECTIONS,
    ...engine,
    { kind: 'maintenance', name: MAINTENANCE_SECTION },
  ];
  const named = sectionsOf(document, known);
  let maintenance: MaintenanceSettings | undefined;
  try {
    const changes = await services.db.transaction().execute(async (tx) => {
      const result = await applyIn(tx, { services, backupDirs }, document, named, actor);
      maintenance = result.maintenance;
      if (dryRun) throw new DryRunDone(result.changes);
      return result.changes;
    });
    if (maintenance) services.maintenanceSettings.announce(maintenance);
    return changes;
  } catch (error) {
    if (error instanceof DryRunDone) return error.changes;
    throw error;
  }
}

async function applyIn(
  tx: Tx,
  { services, backupDirs }: ApplyDependencies,
  document: ConfigurationDocument,
  named: Section[],
  actor: string,
) {
  await holdConfigurationLock(tx);
  const scoped = servicesIn(tx, services, backupDirs);
  const current = await readConfiguration({
    db: tx,
    registry: services.schemas,
    catalogue: services.catalogue,
    maintenance: () => scoped.maintenance.get(),
  });
  const changes: ConfigurationChange[] = [];
  const note = (path: string, action: ChangeAction | undefined) => {
    if (action) changes.push({ path, action });
  };
  const box = services.secrets;
  const writerOf = (section: CollectionSection | SingleSection) =>
    createEntityWriter({
      tx,
      box,
      scoped,
      screen: [...services.schemas.screens.values()].find(
        (screen) => screen.entity === section.entity && screen.store !== undefined,
      ) as never,
      entity: services.schemas.entities.get(section.entity)!,
      actor,
    });
  const repositories = createRepositoryWriter({
    tx,
    box,
    scoped,
    entity: services.schemas.entities.get('repository')!,
    actor,
  });
  const collections = named.filter((s): s is CollectionSection => s.kind === 'collection');
  const early = collections.filter((s) => BEFORE_REPOSITORIES.has(s.entity));
  const late = collections.filter((s) => !BEFORE_REPOSITORIES.has(s.entity));
  const repoSections = named.filter((s): s is RepositorySection => s.kind === 'repositories');
  const caseless = (s: CollectionSection) => s.keyCase === 'insensitive';

  async function upsertCollection(section: CollectionSection) {
    const writer = writerOf(section);
    const existing = current[section.name] as Record<string, unknown>;
    for (const [key, item] of Object.entries(itemsOf(document, section.name, caseless(section)))) {
      if (canonicalJson(item) === canonicalJson(existing[key])) continue;
      note(pathOf(section.name, key), await writer.upsert(section, key, item));
    }
  }
  async function deleteFromCollection(section: CollectionSection) {
    const writer = writerOf(section);
    const wanted = document[section.name] as Record<string, unknown>;
    const existing = current[section.name] as Record<string, unknown>;
    for (const key of removed(existing, wanted, caseless(section)))
      note(pathOf(section.name, key), await writer.delete(section, key));
  }

  const projects = createProjectWriter({ tx, services, scoped, actor });
  const currentProjects = current[PROJECTS_SECTION] as Record<string, EntityDocument>;
  async function upsertProjects() {
    for (const [key, item] of Object.entries(itemsOf(document, PROJECTS_SECTION, false)))
      note(pathOf(PROJECTS_SECTION, key), await projects.upsert(key, item, currentProjects[key]));
  }
  async function deleteProjects() {
    const wanted = document[PROJECTS_SECTION] as Record<string, unknown>;
    for (const key of removed(currentProjects, wanted, false))
      note(pathOf(PROJECTS_SECTION, key), await projects.delete(key));
  }

  async function replaceSettings(afterRepositories: boolean) {
    for (const section of named) {
      if (section.kind !== 'single') continue;
      if (SETTINGS_AFTER_REPOSITORIES.has(section.entity) !== afterRepositories) continue;
      const wanted = document[section.name] as EntityDocument;
      if (canonicalJson(wanted) === canonicalJson(current[section.name])) continue;
      note(section.name, await writerOf(section).replace(section, wanted));
    }
  }

  await replaceSettings(false);
  let maintenance: MaintenanceSettings | undefined;
  if (named.some((s) => s.kind === 'maintenance')) {
    const wanted = {
      ...DEFAULT_MAINTENANCE,
      ...(document[MAINTENANCE_SECTION] as object),
    } as MaintenanceSettings;
    if (canonicalJson(wanted) !== canonicalJson(current[MAINTENANCE_SECTION])) {
      maintenance = await refusedAt(MAINTENANCE_SECTION, async () => {
        validateAgainst(
          'maintenance',
          () => maintenanceSettingsSchema({ allRequired: false }),
          wanted,
        );
        return scoped.maintenance.update(wanted);
      });
      note(MAINTENANCE_SECTION, 'update');
    }
  }
  for (const section of early) await upsertCollection(section);
  const projectsNamed = named.some((s) => s.kind === 'projects');
  if (projectsNamed) await upsertProjects();
  for (const section of repoSections) {
    const items = itemsOf(document, section.name, true);
    for (const [key, item] of Object.entries(items)) {
      const existing = currentRepository(current, key);
      note(pathOf(section.name, key), await repositories.upsert(section, key, item, existing));
    }
  }
  for (const section of late) await upsertCollection(section);
  await replaceSettings(true);
  for (const section of [...late].reverse()) await deleteFromCollection(section);
  for (const section of [...repoSections].reverse()) {
    const wanted = document[section.name] as Record<string, unknown>;
    const existing = current[section.name] as Record<string, unknown>;
    for (const key of removed(existing, wanted, true))
      note(pathOf(section.name, key), await repositories.delete(section, key));
  }
  if (projectsNamed) await deleteProjects();
  for (const section of [...early].reverse()) await deleteFromCollection(section);
  if (changes.length > 0)
    await insertAudit(tx, [
      {
        entity: 'configuration',
        key: 'descriptor',
        action: 'update',
        actor,
        changes: Object.fromEntries(changes.map((change) => [change.path, { to: change.action }])),
      },
    ]);
  return { changes, maintenance };
}

/** A repository's current entry, in whichever section it is (its kind never changes). */
function currentRepository(current: ConfigurationDocument, key: string) {
  for (const section of REPOSITORY_SECTIONS) {
    const items = current[section.name] as Record<string, EntityDocument>;
    const found = Object.entries(items).find(([name]) => name.toLowerCase() === key.toLowerCase());
    if (found) return found[1];
  }
  return undefined;
}
