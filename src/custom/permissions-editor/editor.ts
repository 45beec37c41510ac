import type { PermissionSection, PermissionTarget, RepoChoice } from '../../api/permissions';
import { asListed } from './repositoryKeys';

/**
 * The permissions editor's form, and how it maps to a permission target (Artifactory's v2
 * JSON, docs/access-control.md). Pure: the model (model.ts) and the tests use it.
 */

/**
 * The sections the editor edits (spec 01 §2: repositories, builds, bundles labelled Release
 * Bundles). Bundles need an enterprise-class license (spec 01 §6), which Depot has until one
 * is installed. Destinations, pipelines and Xray sources need services Depot lacks: shown
 * read-only when a target has them (OTHER_SECTIONS), never edited, saved back as they were.
 */
export const RESOURCES = ['repo', 'build', 'releaseBundle'] as const;
export type Resource = (typeof RESOURCES)[number];
export const OTHER_SECTIONS = ['destination', 'pipelineSource', 'xraySource'] as const;
export type OtherSection = (typeof OTHER_SECTIONS)[number];

/** Each resource's actions, in order: granting one implies those before it (spec 01 §3). */
export const RESOURCE_ACTIONS: Record<Resource, readonly string[]> = {
  repo: ['read', 'annotate', 'write', 'delete', 'managedXrayMeta', 'manage'],
  build: ['read', 'annotate', 'write', 'delete', 'managedXrayMeta', 'manage'],
  releaseBundle: ['read', 'annotate', 'write', 'distribute', 'delete', 'managedXrayMeta', 'manage'],
};

export type DisplayMode = 'any' | 'pattern' | 'name';
export type PrincipalKind = 'users' | 'groups';

/** What a resource covers, as the form edits it. */
export interface ResourceForm {
  /** Repositories only: the class markers and the repositories chosen by name. */
  anyLocal: boolean;
  anyRemote: boolean;
  repositories: string[];
  mode: DisplayMode;
  /** By Name: plain names (a folder of a repository, a build's name). */
  names: string[];
  /** By Pattern: Ant patterns. */
  includePatterns: string[];
  excludePatterns: string[];
}

/** Every principal's actions, per resource. */
export type Grants = Record<PrincipalKind, Record<string, Partial<Record<Resource, string[]>>>>;

export interface EditorForm {
  name: string;
  resources: Partial<Record<Resource, ResourceForm>>;
  grants: Grants;
  /**
   * The loaded target's sections this editor does not edit (destinations, pipelines, Xray,
   * set over the REST API): shown read-only and saved back as they were, since a save
   * replaces the whole target.
   */
  otherSections: Pick<PermissionTarget, OtherSection>;
}

export const EMPTY_RESOURCE: ResourceForm = {
  anyLocal: false,
  anyRemote: false,
  repositories: [],
  mode: 'any',
  names: [],
  includePatterns: [],
  excludePatterns: [],
};

export const emptyForm = (): EditorForm => ({
  name: '',
  resources: {},
  grants: { users: {}, groups: {} },
  otherSections: {},
});

const PLAIN_NAME = /^[^*?]+\/\*\*$/;

/**
 * Spec 01 §3: By Name when all saved patterns are plain names (`name/**`), Any when the
 * patterns cover everything, else By Pattern.
 */
export function displayModeOf(includes: string[], excludes: string[]): DisplayMode {
  if (
    excludes.length === 0 &&
    (includes.length === 0 || (includes.length === 1 && includes[0] === '**'))
  )
    return 'any';
  if (excludes.length === 0 && includes.every((pattern) => PLAIN_NAME.test(pattern))) return 'name';
  return 'pattern';
}

/** Whether a resource says what it covers; one that does not is left out on save. */
export function hasData(resource: Resource, form: ResourceForm | undefined): boolean {
  if (!form) return false;
  if (resource === 'repo' && !form.anyLocal && !form.anyRemote && form.repositories.length === 0)
    return false;
  if (form.mode === 'name') return form.names.length > 0;
  if (form.mode === 'pattern') return form.includePatterns.length > 0;
  return true;
}

function patternsOf(form: ResourceForm): { include: string[]; exclude: string[] } {
  if (form.mode === 'any') return { include: ['**'], exclude: [] };
  if (form.mode === 'name')
    return { include: form.names.map((name) => `${name.replace(/\/+$/, '')}/**`), exclude: [] };
  return { include: form.includePatterns, exclude: form.excludePatterns };
}

function repositoriesOf(form: ResourceForm): string[] {
  // Depot has local and remote repositories only, so both classes together mean any.
  if (form.anyLocal && form.anyRemote) return ['ANY'];
  return [
    ...(form.anyLocal ? ['ANY LOCAL'] : []),
    ...(form.anyRemote ? ['ANY REMOTE'] : []),
    ...form.repositories,
  ];
}

/** The action implications: checking one checks those before it, unchecking those after. */
export function toggleAction(
  resource: Resource,
  granted: string[],
  action: string,
  on: boolean,
): string[] {
  const order = RESOURCE_ACTIONS[resource];
  const index = order.indexOf(action);
  const highest = Math.max(-1, ...granted.map((a) => order.indexOf(a)));
  const top = on ? Math.max(highest, index) : Math.min(highest, index - 1);
  return order.slice(0, top + 1);
}

/** Principals with no action on any resource that has data: they are not saved. */
export function principalsWithoutPermissions(form: EditorForm): string[] {
  const empty: string[] = [];
  for (const kind of ['users', 'groups'] as const) {
    for (const [name, perResource] of Object.entries(form.grants[kind])) {
      const any = RESOURCES.some(
        (resource) =>
          hasData(resource, form.resources[resource]) && (perResource[resource]?.length ?? 0) > 0,
      );
      if (!any) empty.push(name);
    }
  }
  return empty;
}

/** The target the form describes: resources without data left out, with them their grants. */
export function toTarget(form: EditorForm): PermissionTarget {
  const target: PermissionTarget = { ...form.otherSections, name: form.name.trim() };
  for (const resource of RESOURCES) {
    const resourceForm = form.resources[resource];
    if (!resourceForm || !hasData(resource, resourceForm)) continue;
    const { include, exclude } = patternsOf(resourceForm);
    const actions = { users: {}, groups: {} } as PermissionSection['actions'];
    for (const kind of ['users', 'groups'] as const) {
      for (const [name, perResource] of Object.entries(form.grants[kind])) {
        const granted = perResource[resource] ?? [];
        if (granted.length > 0) actions[kind][name] = granted;
      }
    }
    target[resource] = {
      'include-patterns': include,
      'exclude-patterns': exclude,
      // Builds and bundles have fixed repositories: the server fills them in (spec 01 §3).
      repositories: resource === 'repo' ? repositoriesOf(resourceForm) : [],
      actions,
    };
  }
  return target;
}

function resourceFormOf(
  resource: Resource,
  section: PermissionSection,
  choices: RepoChoice[],
): ResourceForm {
  const include = section['include-patterns'];
  const exclude = section['exclude-patterns'];
  const mode = displayModeOf(include, exclude);
  const repositories = section.repositories;
  const any = repositories.includes('ANY');
  return {
    anyLocal: any || repositories.includes('ANY LOCAL'),
    anyRemote: any || repositories.includes('ANY REMOTE'),
    repositories:
      resource === 'repo'
        ? repositories.filter((key) => !key.startsWith('ANY')).map((key) => asListed(key, choices))
        : [],
    mode,
    names: mode === 'name' ? include.map((pattern) => pattern.replace(/\/\*\*$/, '')) : [],
    includePatterns: mode === 'pattern' ? include : [],
    excludePatterns: mode === 'pattern' ? exclude : [],
  };
}

/** The form for a stored target; `choices` are the repositories the editor lists. */
export function fromTarget(target: PermissionTarget, choices: RepoChoice[] = []): EditorForm {
  const form = emptyForm();
  const { name, repo: _repo, build: _build, releaseBundle: _bundle, ...otherSections } = target;
  form.name = name;
  form.otherSections = otherSections;
  for (const resource of RESOURCES) {
    const section = target[resource];
    if (!section) continue;
    form.resources[resource] = resourceFormOf(resource, section, choices);
    for (const kind of ['users', 'groups'] as const) {
      for (const [name, actions] of Object.entries(section.actions[kind])) {
        form.grants[kind][name] = { ...form.grants[kind][name], [resource]: actions };
      }
    }
  }
  return form;
}

/** Saving a resource with no data clears that resource from every user and group (spec 01 §3). */
export function clearResourceGrants(grants: Grants, resource: Resource): Grants {
  const cleared: Grants = { users: {}, groups: {} };
  for (const kind of ['users', 'groups'] as const) {
    for (const [name, perResource] of Object.entries(grants[kind])) {
      const { [resource]: _dropped, ...rest } = perResource;
      cleared[kind][name] = rest;
    }
  }
  return cleared;
}
