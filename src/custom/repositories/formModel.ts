import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { ApiError, isServerFailure } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import {
  repositoriesApi,
  type LayoutEntry,
  type PackageTypeEntry,
  type RepoKind,
  type RepositoryFormModel,
  type ResolvedRepository,
} from '../../api/repositories';
import { DEFAULT_ERROR_MESSAGE } from '../../engine/messages';
import { navigateFx } from '../../shell/navigation/model';
import { notificationShown } from '../../shell/notifications/model';
import { $contextProjectKey } from '../../shell/project/model';
import { emptyModel, formErrors, sameModel, type FieldErrors, type FormMode } from './formRules';
import { repoKeyError } from './keyRules';
import { KEY_CHECK_DELAY_MS, listPath } from './messages';

export interface FormTarget {
  kind: RepoKind;
  /** The repository being edited; none for a new one. */
  key?: string;
}

export const formOpened = createEvent<FormTarget>();
export const formClosed = createEvent();
export const packageTypePicked = createEvent<PackageTypeEntry>();
export const modelChanged = createEvent<RepositoryFormModel>();
export const saveClicked = createEvent();
export const testRemoteClicked = createEvent();
/** A form has its first model: a new one with defaults, or the repository as loaded. */
const modelStarted = createEvent<RepositoryFormModel>();

export const loadChoicesFx = createEffect(async (kind: RepoKind) => {
  const [packageTypes, layouts] = await Promise.all([
    repositoriesApi.packageTypes(kind),
    repositoriesApi.layouts(),
  ]);
  return { packageTypes, layouts };
});
export const loadModelFx = createEffect(({ kind, key }: Required<FormTarget>) =>
  repositoriesApi.get(kind, key),
);
export const loadAvailableFx = createEffect(
  ({
    packageType,
    repoKey,
    projectKey,
  }: {
    packageType: string;
    repoKey: string;
    projectKey?: string;
  }) => repositoriesApi.availableRepositories(packageType, repoKey, projectKey),
);
export const saveFx = createEffect(
  ({ mode, model }: { mode: FormMode; model: RepositoryFormModel }) =>
    mode === 'create' ? repositoriesApi.create(model) : repositoriesApi.update(model),
);
export const testRemoteFx = createEffect((url: string) => repositoriesApi.testRemote(url));

let latestKeyCheck = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Asks the server about a key once typing pauses; a newer keystroke cancels the question. */
export const checkKeyFx = createEffect(
  async (query: {
    repoType: RepoKind;
    repoKey: string;
    packageType: string;
    projectKey?: string;
  }) => {
    const ticket = ++latestKeyCheck;
    await sleep(KEY_CHECK_DELAY_MS);
    if (ticket !== latestKeyCheck) return null;
    return { key: query.repoKey, answer: await repositoriesApi.validateRepoName(query) };
  },
);

export const $target = createStore<FormTarget | null>(null)
  .on(formOpened, (_, target) => target)
  .reset(formClosed);
export const $mode = $target.map<FormMode>((target) => (target?.key ? 'edit' : 'create'));
export const $packageTypes = createStore<PackageTypeEntry[]>([])
  .on(loadChoicesFx.doneData, (_, choices) => choices.packageTypes)
  .reset(formClosed);
export const $layouts = createStore<LayoutEntry[]>([])
  .on(loadChoicesFx.doneData, (_, choices) => choices.layouts)
  .reset(formClosed);
export const $available = createStore<ResolvedRepository[]>([])
  .on(loadAvailableFx.doneData, (_, list) => list)
  .reset(formClosed);

/** What the form shows; null until the package type is picked or the repository loaded. */
export const $model = createStore<RepositoryFormModel | null>(null)
  .on(modelChanged, (_, model) => model)
  .on(loadModelFx.doneData, (_, model) => model)
  .reset(formClosed);
/** The model as loaded or last saved: leaving with anything else asks first. */
export const $savedModel = createStore<RepositoryFormModel | null>(null)
  .on(loadModelFx.doneData, (_, model) => model)
  .on(saveFx.done, (_, { params }) => params.model)
  .reset(formClosed);
export const $dirty = combine($model, $savedModel, (model, saved) => !sameModel(model, saved));

export const $submitAttempted = createStore(false)
  .on(saveClicked, () => true)
  .reset(formClosed);
/** Errors the server gave on fields: from the last save, and the key check for the key. */
export const $serverErrors = createStore<FieldErrors>({})
  .on(saveFx.failData, (_, error) =>
    Object.fromEntries(
      error instanceof ApiError ? error.fieldErrors.map((e) => [e.field, e.message]) : [],
    ),
  )
  .on(modelChanged, () => ({}))
  .reset(formClosed);
/** The server's verdict on a key, kept with the key it is about. */
export const $keyCheck = createStore<{ key: string; error: string | null } | null>(null).reset(
  formClosed,
);
export const $keyChecking = checkKeyFx.pending;
export const $saving = saveFx.pending;
export const $loading = combine(
  loadChoicesFx.pending,
  loadModelFx.pending,
  (choices, model) => choices || model,
);

/** The errors the form shows: its own rules once a save was tried, then the server's. */
export const $fieldErrors = combine(
  $model,
  $mode,
  $submitAttempted,
  $serverErrors,
  $keyCheck,
  (model, mode, attempted, server, keyCheck): FieldErrors => {
    if (!model) return {};
    const own = formErrors(model, mode);
    // A verdict on an earlier key says nothing about the one in the form now.
    const serverKeyError =
      keyCheck?.key === model.general.repoKey ? (keyCheck.error ?? undefined) : undefined;
    const keyError = own['general.repoKey'] ?? serverKeyError;
    // The key is checked as it is typed; other fields once a save was tried.
    const shown: FieldErrors = attempted ? { ...own } : {};
    if (mode === 'create' && model.general.repoKey !== '' && keyError)
      shown['general.repoKey'] = keyError;
    return { ...shown, ...server };
  },
);

// when the form opens, load the package types and layouts; when editing, the repository too
sample({ clock: formOpened, fn: (target) => target.kind, target: loadChoicesFx });
sample({
  clock: formOpened,
  filter: (target): target is Required<FormTarget> => target.key !== undefined,
  target: loadModelFx,
});

// when the admin picks a package type, start a new form with that type's defaults
sample({
  clock: packageTypePicked,
  source: { target: $target, projectKey: $contextProjectKey },
  filter: ({ target }) => target !== null,
  fn: ({ target, projectKey }, type) => emptyModel(target!.kind, type, projectKey ?? undefined),
  target: [$model, $savedModel, modelStarted],
});
sample({ clock: loadModelFx.doneData, target: modelStarted });

// when a virtual repository's form starts, offer the locals and remotes of its package type
sample({
  clock: modelStarted,
  filter: (model) => model.type === 'virtual',
  fn: (model) => ({
    packageType: model.typeSpecific.repoType,
    repoKey: model.general.repoKey,
    projectKey: model.general.projectKey,
  }),
  target: loadAvailableFx,
});

// when the key changes in a new form and passes the console's rules, ask the server
sample({
  clock: modelChanged,
  source: $mode,
  filter: (mode, model) =>
    mode === 'create' &&
    repoKeyError(model.general.repoKey, model.type, model.typeSpecific.repoType) === undefined,
  fn: (_, model) => ({
    repoType: model.type,
    repoKey: model.general.repoKey,
    packageType: model.typeSpecific.repoType,
    projectKey: model.general.projectKey,
  }),
  target: checkKeyFx,
});
// when the server answers, keep its verdict with the key it is about
sample({
  // null: a newer keystroke superseded the question
  clock: checkKeyFx.doneData.filterMap((result) => result ?? undefined),
  fn: (result) => ({
    key: result.key,
    error: result.answer.valid ? null : (result.answer.error ?? null),
  }),
  target: $keyCheck,
});

// when the admin saves a form without errors, send it
sample({
  clock: saveClicked,
  source: { model: $model, mode: $mode, errors: $fieldErrors, saving: $saving },
  filter: ({ model, mode, errors, saving }) =>
    model !== null &&
    !saving &&
    Object.keys({ ...formErrors(model, mode), ...errors }).length === 0,
  fn: ({ model, mode }) => ({ mode, model: model! }),
  target: saveFx,
});

// when the server saved it, say so and go back to the list
sample({
  clock: saveFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
sample({
  clock: saveFx.done,
  fn: ({ params }) => ({ to: listPath(params.model.type) }),
  target: navigateFx,
});

// when the admin tests the remote URL, ask the server to connect to it
sample({
  clock: testRemoteClicked,
  source: $model,
  filter: (model) => Boolean(model?.remote?.url),
  fn: (model) => model!.remote!.url!,
  target: testRemoteFx,
});
sample({
  clock: testRemoteFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});

// when a call fails without naming a field, show the parsed message (5xx: error dialog)
sample({
  clock: [loadChoicesFx.failData, loadModelFx.failData, loadAvailableFx.failData, saveFx.failData],
  filter: (error) =>
    !isServerFailure(error) && !(error instanceof ApiError && error.fieldErrors.length > 0),
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, DEFAULT_ERROR_MESSAGE) }),
  target: notificationShown,
});
// when the connection test fails, say why
sample({
  clock: testRemoteFx.failData,
  filter: (error) => !isServerFailure(error),
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, DEFAULT_ERROR_MESSAGE) }),
  target: notificationShown,
});
