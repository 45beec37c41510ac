import type { PackageTypeEntry, RepoKind, RepositoryFormModel } from '../../api/repositories';
import { repoKeyError } from './keyRules';
import { REQUIRED_FIELD_MESSAGE } from './messages';

export type FormMode = 'create' | 'edit';

/** What every key of a project's repository starts with. */
export const projectKeyPrefix = (projectKey: string) => `${projectKey}-`;
/** Messages by form path ("general.repoKey"), as the server names fields too. */
export type FieldErrors = Record<string, string>;

/**
 * A new repository's form: the package type's default layout, includes '**\/*' (spec 03 §9).
 * In a project's context the key starts with `{projectKey}-` (spec 03 §5).
 */
export function emptyModel(
  kind: RepoKind,
  packageType: PackageTypeEntry,
  projectKey?: string,
): RepositoryFormModel {
  return {
    type: kind,
    general: projectKey ? { repoKey: projectKeyPrefix(projectKey), projectKey } : { repoKey: '' },
    typeSpecific: { repoType: packageType.value, ...mavenDefaults(kind, packageType.value) },
    basic: {
      layout: packageType.defaultLayout,
      publicDescription: '',
      internalDescription: '',
      includesPattern: '**/*',
      excludesPattern: '',
      // A project's repository starts in DEV, where its developers deploy (docs/projects.md).
      ...(projectKey ? { environments: ['DEV'] } : {}),
    },
    ...(kind === 'remote'
      ? {
          remote: {
            url: '',
            offline: false,
            missedRetrievalCachePeriodSecs: 1800,
            socketTimeoutMillis: 15000,
          },
        }
      : {}),
    ...(kind === 'virtual'
      ? { virtual: { resolvedRepositories: [], defaultDeploymentRepo: '' } }
      : {}),
    advanced: { allowContentBrowsing: false },
  };
}

/**
 * What the console checks before saving: the key rules (new repositories only: a key never
 * changes) and the required fields. The rest is the server's, shown on the field it names.
 */
export function formErrors(model: RepositoryFormModel, mode: FormMode): FieldErrors {
  const errors: FieldErrors = {};
  if (mode === 'create') {
    const keyError = repoKeyError(model.general.repoKey, model.type, model.typeSpecific.repoType);
    if (keyError) errors['general.repoKey'] = keyError;
  }
  if (model.type === 'remote' && !model.remote?.url?.trim())
    errors['remote.url'] = REQUIRED_FIELD_MESSAGE;
  return errors;
}

/** Whether two models differ in what a user could have changed ('' and absent are alike). */
export function sameModel(a: RepositoryFormModel | null, b: RepositoryFormModel | null): boolean {
  const normal = (value: unknown) =>
    JSON.stringify(value, (_, v: unknown) => (v === '' || v === null ? undefined : v));
  return normal(a) === normal(b);
}

/** Package types laid out as Maven repositories, whose form has the Maven settings. */
export const MAVEN_LAYOUT_TYPES = new Set(['maven', 'gradle', 'ivy', 'sbt']);

/** Artifactory's defaults of the Maven settings a new repository of this kind has. */
function mavenDefaults(kind: RepoKind, packageType: string) {
  if (!MAVEN_LAYOUT_TYPES.has(packageType) || kind === 'virtual') return {};
  const handling = { handleReleases: true, handleSnapshots: true };
  return kind === 'local'
    ? { ...handling, maxUniqueSnapshots: 0, suppressPomConsistencyChecks: false }
    : handling;
}
