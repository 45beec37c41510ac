import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { RepositoryClass, RepositoryConfig } from './service.ts';

/** The repository form's sections (spec 03 §3 repository form model). */
export type FormSection = 'general' | 'typeSpecific' | 'basic' | 'remote' | 'virtual' | 'advanced';

/** A member of a virtual repository as the form shows it. */
export interface ResolvedRepository {
  repoKey: string;
  type?: RepositoryClass;
  packageType?: string;
}

/** What the console's repository form reads and sends. */
export interface RepositoryForm {
  type: RepositoryClass;
  general: { repoKey: string; projectKey?: string };
  typeSpecific: { repoType: string };
  basic?: Record<string, unknown>;
  remote?: Record<string, unknown>;
  virtual?: Record<string, unknown>;
  advanced?: Record<string, unknown>;
}

/**
 * One table maps the REST API's repository fields onto the form's sections, both ways:
 * the form is a view of the same configuration, so the service's rules apply unchanged.
 * `kinds` limits a field to the repository kinds that have it.
 */
const FORM_FIELDS: {
  rest: keyof RepositoryConfig;
  section: FormSection;
  field: string;
  kinds?: RepositoryClass[];
}[] = [
  { rest: 'key', section: 'general', field: 'repoKey' },
  { rest: 'projectKey', section: 'general', field: 'projectKey' },
  { rest: 'packageType', section: 'typeSpecific', field: 'repoType' },
  // Maven-layout settings (docs/maven.md), in the type's own section as Artifactory has them.
  {
    rest: 'handleReleases',
    section: 'typeSpecific',
    field: 'handleReleases',
    kinds: ['local', 'remote'],
  },
  {
    rest: 'handleSnapshots',
    section: 'typeSpecific',
    field: 'handleSnapshots',
    kinds: ['local', 'remote'],
  },
  {
    rest: 'maxUniqueSnapshots',
    section: 'typeSpecific',
    field: 'maxUniqueSnapshots',
    kinds: ['local'],
  },
  {
    rest: 'suppressPomConsistencyChecks',
    section: 'typeSpecific',
    field: 'suppressPomConsistencyChecks',
    kinds: ['local'],
  },
  { rest: 'repoLayoutRef', section: 'basic', field: 'layout' },
  { rest: 'description', section: 'basic', field: 'publicDescription' },
  { rest: 'notes', section: 'basic', field: 'internalDescription' },
  { rest: 'includesPattern', section: 'basic', field: 'includesPattern' },
  { rest: 'excludesPattern', section: 'basic', field: 'excludesPattern' },
  { rest: 'environments', section: 'basic', field: 'environments' },
  { rest: 'url', section: 'remote', field: 'url', kinds: ['remote'] },
  { rest: 'offline', section: 'remote', field: 'offline', kinds: ['remote'] },
  { rest: 'username', section: 'remote', field: 'username', kinds: ['remote'] },
  { rest: 'password', section: 'remote', field: 'password', kinds: ['remote'] },
  {
    rest: 'missedRetrievalCachePeriodSecs',
    section: 'remote',
    field: 'missedRetrievalCachePeriodSecs',
    kinds: ['remote'],
  },
  {
    rest: 'socketTimeoutMillis',
    section: 'remote',
    field: 'socketTimeoutMillis',
    kinds: ['remote'],
  },
  { rest: 'repositories', section: 'virtual', field: 'resolvedRepositories', kinds: ['virtual'] },
  {
    rest: 'defaultDeploymentRepo',
    section: 'virtual',
    field: 'defaultDeploymentRepo',
    kinds: ['virtual'],
  },
  { rest: 'allowContentBrowsing', section: 'advanced', field: 'allowContentBrowsing' },
];

/** The fields each form section accepts, for the route's body schema. */
export function sectionFields(section: FormSection): string[] {
  return FORM_FIELDS.filter((f) => f.section === section).map((f) => f.field);
}

/** Where a REST field's error shows in the form ("key" → "general.repoKey"). */
export function formFieldOf(restField: string | undefined): string | undefined {
  if (restField === undefined) return undefined;
  if (restField === 'rclass') return 'type';
  const entry = FORM_FIELDS.find((f) => f.rest === restField);
  return entry ? `${entry.section}.${entry.field}` : restField;
}

const appliesTo = (kinds: RepositoryClass[] | undefined, kind: RepositoryClass) =>
  !kinds || kinds.includes(kind);

/** Members as keys; a malformed entry is passed on as it is, for the schema to refuse. */
function memberKeys(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((member: unknown) =>
    member !== null && typeof member === 'object' ? (member as ResolvedRepository).repoKey : member,
  );
}

/** The REST configuration a form describes; fields the form left out stay out. */
export function toRepositoryConfig(form: RepositoryForm): Partial<RepositoryConfig> {
  const config: Record<string, unknown> = { rclass: form.type };
  for (const { rest, section, field, kinds } of FORM_FIELDS) {
    const value = (form[section] as Record<string, unknown> | undefined)?.[field];
    if (value === undefined || !appliesTo(kinds, form.type)) continue;
    config[rest] = rest === 'repositories' ? memberKeys(value) : value;
  }
  return config as Partial<RepositoryConfig>;
}

/** The form model of a stored repository; `members` describes a virtual's members. */
export function toRepositoryForm(
  config: RepositoryConfig,
  members: Map<string, ResolvedRepository> = new Map(),
): RepositoryForm {
  const form: Record<string, Record<string, unknown>> = {};
  for (const { rest, section, field, kinds } of FORM_FIELDS) {
    if (!appliesTo(kinds, config.rclass)) continue;
    const value =
      rest === 'repositories'
        ? (config.repositories ?? []).map(
            (key) => members.get(key.toLowerCase()) ?? { repoKey: key },
          )
        : config[rest];
    (form[section] ??= {})[field] = value;
  }
  return { ...form, type: config.rclass } as unknown as RepositoryForm;
}

/** One row of the console's repository list. */
export interface RepositoryListItem {
  repoKey: string;
  repoType: RepositoryClass;
  packageType: string;
  packageTypeText: string;
  local: boolean;
  remote: boolean;
  virtual: boolean;
  defaultDeploymentConfigured: boolean;
  description: string;
  layout: string;
  url?: string;
  repositories?: string[];
  membersCount?: number;
  filesCount?: number;
  usedSpace?: number;
  /** The project owning the repository (spec 03 §4 repository list item). */
  projectKey?: string;
  sharedWithProjects?: string[];
  /** Where project roles act on it (spec 03 §4 repository list item). */
  environments: string[];
}

export function toListItem(
  config: RepositoryConfig,
  catalogue: Catalogue,
  usage: { filesCount: number; usedSpace: number } | undefined,
): RepositoryListItem {
  const kind = config.rclass;
  const item: RepositoryListItem = {
    repoKey: config.key,
    repoType: kind,
    packageType: config.packageType,
    packageTypeText: catalogue.packageType(config.packageType)?.text ?? config.packageType,
    local: kind === 'local',
    remote: kind === 'remote',
    virtual: kind === 'virtual',
    defaultDeploymentConfigured: kind === 'virtual' && Boolean(config.defaultDeploymentRepo),
    description: config.description ?? '',
    layout: config.repoLayoutRef ?? '',
    environments: config.environments ?? [],
  };
  if (config.projectKey) item.projectKey = config.projectKey;
  if (config.sharedWithProjects?.length) item.sharedWithProjects = config.sharedWithProjects;
  if (kind === 'remote') item.url = config.url;
  if (kind === 'virtual') {
    item.repositories = config.repositories ?? [];
    item.membersCount = item.repositories.length;
  } else {
    // A virtual stores nothing itself; locals hold deploys, remotes their cache.
    item.filesCount = usage?.filesCount ?? 0;
    item.usedSpace = usage?.usedSpace ?? 0;
  }
  return item;
}
