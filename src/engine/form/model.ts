import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import type { ChoiceSource, FormAction, ScreenDescriptor } from '../../api/descriptor';
import { createResourceClient, fetchChoices, runFormAction, type Row } from '../../api/resource';
import { ApiError, isServerFailure, isUnreachable } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { navigateFx } from '../../shell/navigation/model';
import { NOT_FOUND_PATH } from '../../shell/messages';
import { DEFAULT_ERROR_MESSAGE, FORM_ACTION_DONE, savedMessage } from '../messages';
import { buildFormSchema, initialFormData, type FormMode } from './formSchema';
import { sameFormData } from './sameFormData';

export interface FormTarget {
  descriptor: ScreenDescriptor;
  mode: FormMode;
  /** The edited entity's key; absent when creating. */
  key?: string;
}

const client = (d: ScreenDescriptor) => createResourceClient(d.api, d.key);
const schemaOf = ({ descriptor, mode }: FormTarget) =>
  buildFormSchema(descriptor.form, descriptor.entitySchema, mode).schema;

export const formOpened = createEvent<FormTarget>();
export const formClosed = createEvent();
export const formChanged = createEvent<Row>();
/** Valid data from SchemaForm, ready to send. */
export const formSubmitted = createEvent<Row>();

/** One of the descriptor's `form.actions` was clicked on a valid form. */
export const formActionClicked = createEvent<{ action: FormAction; payload: Row }>();

export const runFormActionFx = createEffect(
  ({ action, payload }: { action: FormAction; payload: Row }) => runFormAction(action, payload),
);

export const loadEntityFx = createEffect(({ descriptor, key }: FormTarget) =>
  client(descriptor).get(key ?? ''),
);
/** A field's choices from each of its calls, in order, each once. */
async function choicesOf(sources: ChoiceSource | ChoiceSource[]): Promise<string[]> {
  const lists = await Promise.all([sources].flat().map((source) => fetchChoices(source)));
  return [...new Set(lists.flat())];
}

export const loadChoicesFx = createEffect(async (descriptor: ScreenDescriptor) => {
  const entries = await Promise.all(
    Object.entries(descriptor.form.options ?? {}).map(
      async ([field, sources]) => [field, await choicesOf(sources)] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<string, string[]>;
});
export const saveFx = createEffect(({ target, payload }: { target: FormTarget; payload: Row }) =>
  target.mode === 'create'
    ? client(target.descriptor).create(payload)
    : client(target.descriptor).update(target.key ?? '', payload),
);

export const $target = createStore<FormTarget | null>(null)
  .on(formOpened, (_, t) => t)
  .reset(formClosed);
/** What the form started from; null while the entity loads. */
export const $initialData = createStore<Row | null>(null).reset(formOpened, formClosed);
export const $formData = createStore<Row>({})
  .on(formChanged, (_, data) => data)
  .reset(formOpened, formClosed);
export const $choices = createStore<Record<string, string[]>>({})
  .on(loadChoicesFx.doneData, (_, choices) => choices)
  .reset(formOpened, formClosed);
export const $saving = saveFx.pending;
/** The ids of the form actions under way. */
export const $busyActions = createStore<string[]>([])
  .on(runFormActionFx, (busy, { action }) => [...busy, action.id])
  .on(runFormActionFx.finally, (busy, { params }) => busy.filter((id) => id !== params.action.id))
  .reset(formOpened, formClosed);
export const $dirty = combine(
  $initialData,
  $formData,
  (initial, data) => initial !== null && !sameFormData(initial, data),
);

/** Field messages from the server, with the data they were about: a field edited since shows none. */
const $serverErrorState = createStore<{ data: Row; errors: Record<string, string[]> } | null>(
  null,
).reset(formOpened, formClosed, formSubmitted);
export const $serverErrors = combine($serverErrorState, $formData, (state, data) => {
  if (!state) return {};
  return Object.fromEntries(
    Object.entries(state.errors).filter(([field]) => sameFormData(state.data[field], data[field])),
  );
});

const fieldErrorsOf = (error: unknown, target: FormTarget) => {
  if (!(error instanceof ApiError) || isServerFailure(error)) return {};
  const errors: Record<string, string[]> = {};
  for (const { field, message } of error.fieldErrors) {
    if (target.descriptor.form.fields.includes(field)) (errors[field] ??= []).push(message);
  }
  return errors;
};

// when a create form opens, start from the schema defaults
sample({
  clock: formOpened,
  filter: (target) => target.mode === 'create',
  fn: (target) => initialFormData(schemaOf(target)),
  target: [$initialData, $formData],
});

// when an edit form opens, load the entity
sample({ clock: formOpened, filter: (target) => target.mode === 'edit', target: loadEntityFx });

// when the entity arrives for the form still open, start from its values
sample({
  clock: loadEntityFx.done,
  source: $target,
  filter: (target, { params }) => target === params,
  fn: (target, { result }) => initialFormData(schemaOf(target as FormTarget), result),
  target: [$initialData, $formData],
});

// when a form with choice fields opens, fetch the choices
sample({
  clock: formOpened,
  filter: (target) => Object.keys(target.descriptor.form.options ?? {}).length > 0,
  fn: (target) => target.descriptor,
  target: loadChoicesFx,
});

// when the form is submitted, save it
sample({
  clock: formSubmitted,
  source: $target,
  filter: (target: FormTarget | null): target is FormTarget => target !== null,
  fn: (target, payload) => ({ target, payload }),
  target: saveFx,
});

// when saved, say so, take the saved data as the new start (nothing unsaved), go back to the list
sample({
  clock: saveFx.done,
  fn: ({ params: { target, payload } }) => ({
    kind: 'success' as const,
    text: savedMessage(
      String(target.descriptor.entitySchema.title ?? target.descriptor.entity),
      String(payload[target.descriptor.key] ?? target.key),
      target.mode,
      target.descriptor.form.savedMessage,
    ),
  }),
  target: notificationShown,
});
sample({ clock: saveFx.done, source: $formData, target: $initialData });
sample({
  clock: saveFx.done,
  fn: ({ params }) => ({ to: params.target.descriptor.route }),
  target: navigateFx,
});

// when saving fails with messages about form fields, show them on those fields
sample({
  clock: saveFx.fail,
  source: $formData,
  filter: (_, { params, error }) => Object.keys(fieldErrorsOf(error, params.target)).length > 0,
  fn: (data, { params, error }) => ({ data, errors: fieldErrorsOf(error, params.target) }),
  target: $serverErrorState,
});

/** A failure in the server's words, else the descriptor's (`fallback`), else the generic one. */
const toErrorNotification = (error: unknown, fallback?: string) => ({
  kind: 'error' as const,
  text: errorMessage(error, fallback ?? DEFAULT_ERROR_MESSAGE),
});

// when saving fails otherwise, show the parsed message (server failures get the error dialog)
sample({
  clock: saveFx.fail,
  filter: ({ params, error }) =>
    !isServerFailure(error) && Object.keys(fieldErrorsOf(error, params.target)).length === 0,
  fn: ({ params, error }) =>
    toErrorNotification(error, params.target.descriptor.form.saveFailedMessage),
  target: notificationShown,
});

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** Why the edited entity could not be loaded, in the server's words; the page shows it. */
export const $loadError = createStore<string | null>(null)
  .on(loadEntityFx.fail, (_, { params, error }) =>
    errorMessage(error, params.descriptor.form.loadFailedMessage ?? DEFAULT_ERROR_MESSAGE),
  )
  .reset(formOpened, formClosed);

// when the entity is not there (an unknown name, deleted meanwhile), the spec's 404 page
sample({
  clock: loadEntityFx.fail,
  source: $target,
  filter: (target, { params, error }) => target === params && isNotFound(error),
  fn: () => ({ to: NOT_FOUND_PATH, replace: true }),
  target: navigateFx,
});

// when it cannot be loaded otherwise, show why (server failures get the error dialog)
sample({
  clock: loadEntityFx.fail,
  filter: ({ error }) => !isServerFailure(error) && !isNotFound(error),
  fn: ({ params, error }) => toErrorNotification(error, params.descriptor.form.loadFailedMessage),
  target: notificationShown,
});

// when a field's choices cannot be read, say so where the descriptor words it
sample({
  clock: loadChoicesFx.fail,
  filter: ({ params }) => params.form.choicesFailedMessage !== undefined,
  fn: ({ params }) => ({ kind: 'error' as const, text: params.form.choicesFailedMessage ?? '' }),
  target: notificationShown,
});

// when a form action is clicked, send the form to its endpoint
sample({ clock: formActionClicked, target: runFormActionFx });

// when it answers, show its message, or the descriptor's, or that it was done
sample({
  clock: runFormActionFx.done,
  fn: ({ params: { action }, result }) => ({
    kind: 'success' as const,
    text: result ?? action.successMessage ?? FORM_ACTION_DONE,
  }),
  target: notificationShown,
});

const hasUnreachableMessage = (action: FormAction, error: unknown) =>
  action.unreachableMessage !== undefined && isUnreachable(error);

// when it gets no answer from the server and the descriptor words that, show its words
sample({
  clock: runFormActionFx.fail,
  filter: ({ params: { action }, error }) => hasUnreachableMessage(action, error),
  fn: ({ params: { action } }) => ({ kind: 'error' as const, text: action.unreachableMessage! }),
  target: notificationShown,
});

// when it fails, show why in the server's words, else the descriptor's (5xx: the error dialog)
sample({
  clock: runFormActionFx.fail,
  filter: ({ params: { action }, error }) =>
    !isServerFailure(error) && !hasUnreachableMessage(action, error),
  fn: ({ params: { action }, error }) => ({
    kind: 'error' as const,
    text: errorMessage(error, action.failureMessage ?? DEFAULT_ERROR_MESSAGE),
  }),
  target: notificationShown,
});
