import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { ApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import {
  permissionsApi,
  type PermissionTargetRow,
  type PrincipalChoice,
  type RepoChoice,
} from '../../api/permissions';
import { notificationShown } from '../../shell/notifications/model';
import {
  EMPTY_RESOURCE,
  RESOURCES,
  clearResourceGrants,
  emptyForm,
  fromTarget,
  hasData,
  principalsWithoutPermissions,
  toTarget,
  toggleAction,
  type EditorForm,
  type PrincipalKind,
  type Resource,
  type ResourceForm,
} from './editor';
import { PERMISSION_MESSAGES } from './messages';
import { targetNameError } from '../../../server/modules/access-control/target-name.ts';

// ---- the list -------------------------------------------------------------------------

export const listOpened = createEvent();
export const deleteConfirmed = createEvent<string>();
const fetchListFx = createEffect(() => permissionsApi.search());
const deleteFx = createEffect((name: string) => permissionsApi.remove([name]));

export const $rows = createStore<PermissionTargetRow[]>([]).on(
  fetchListFx.doneData,
  (_, rows) => rows,
);
export const $listLoading = fetchListFx.pending;

sample({ clock: [listOpened, deleteFx.done], target: fetchListFx });
sample({ clock: deleteConfirmed, target: deleteFx });
sample({
  clock: deleteFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
sample({
  clock: [fetchListFx.failData, deleteFx.failData],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});

// ---- the editor -----------------------------------------------------------------------

/** `name` null: a new target. */
export const editorOpened = createEvent<{ name: string | null }>();
export const nameChanged = createEvent<string>();
export const resourceChanged = createEvent<{ resource: Resource; form: ResourceForm }>();
export const resourceSaved = createEvent<Resource>();
export const resourceDiscarded = createEvent<Resource>();
export const principalAdded = createEvent<{ kind: PrincipalKind; name: string }>();
export const principalRemoved = createEvent<{ kind: PrincipalKind; name: string }>();
export const actionToggled = createEvent<{
  kind: PrincipalKind;
  name: string;
  resource: Resource;
  action: string;
  on: boolean;
}>();
export const saveClicked = createEvent();
export const confirmAccepted = createEvent();
export const confirmCancelled = createEvent();

export const loadFx = createEffect(async ({ name }: { name: string | null }) => {
  const [principals, repositories, target] = await Promise.all([
    permissionsApi.principals(),
    permissionsApi.repositories(),
    name === null ? Promise.resolve(null) : permissionsApi.get(name),
  ]);
  // The manager's rows are about who is looking, not part of the target saved back.
  const { loggedInAsManager, ...stored } = target ?? { name: '' };
  return {
    principals,
    repositories,
    form: target ? fromTarget(stored, repositories) : emptyForm(),
    managerRows: loggedInAsManager ?? null,
  };
});
const saveFx = createEffect(({ form, creating }: { form: EditorForm; creating: boolean }) => {
  const target = toTarget(form);
  return creating ? permissionsApi.create(target) : permissionsApi.update(target);
});

/**
 * The editor's last opening: an answer for an earlier one (another target, or New, opened
 * meanwhile) is dropped, or it would replace the form of the target now open.
 */
const $opening = createStore<{ name: string | null } | null>(null).on(
  editorOpened,
  (_, opening) => opening,
);
const loaded = sample({
  clock: loadFx.done,
  source: $opening,
  filter: (opening, { params }) => opening === params,
  fn: (_, { result }) => result,
});
const loadFailed = sample({
  clock: loadFx.fail,
  source: $opening,
  filter: (opening, { params }) => opening === params,
  fn: (_, { error }) => error,
});

export const $creating = createStore(true).on(editorOpened, (_, { name }) => name === null);
export const $loadError = createStore<string | null>(null)
  .reset(editorOpened)
  .on(loadFailed, (_, error) => errorMessage(error));
/** The target asked for is not there: the page goes to the spec's 404 page. */
export const $notFound = createStore(false)
  .reset(editorOpened)
  .on(loadFailed, (_, error) => error instanceof ApiError && error.status === 404);
export const $choices = createStore<{
  users: PrincipalChoice[];
  groups: PrincipalChoice[];
  repositories: RepoChoice[];
} | null>(null)
  .reset(editorOpened)
  .on(loaded, (_, { principals, repositories }) => ({ ...principals, repositories }));

/**
 * For a manager who is not an admin: their own rows and their groups', which they may not
 * edit (nor the resources). Null for an admin.
 */
export const $managerRows = createStore<Record<PrincipalKind, string[]> | null>(null)
  .reset(editorOpened)
  .on(loaded, (_, { managerRows }) => managerRows);

/** The saved form: what Create or Save sends. */
export const $form = createStore<EditorForm | null>(null)
  .reset(editorOpened)
  .on(loaded, (_, { form }) => form)
  .on(nameChanged, (form, name) => form && { ...form, name })
  .on(principalAdded, (form, { kind, name }) =>
    form && !form.grants[kind][name]
      ? { ...form, grants: { ...form.grants, [kind]: { ...form.grants[kind], [name]: {} } } }
      : form,
  )
  .on(principalRemoved, (form, { kind, name }) => {
    if (!form) return form;
    const { [name]: _removed, ...rest } = form.grants[kind];
    return { ...form, grants: { ...form.grants, [kind]: rest } };
  })
  .on(actionToggled, (form, { kind, name, resource, action, on }) => {
    if (!form) return form;
    const current = form.grants[kind][name] ?? {};
    const next = toggleAction(resource, current[resource] ?? [], action, on);
    const grants = { ...form.grants[kind], [name]: { ...current, [resource]: next } };
    return { ...form, grants: { ...form.grants, [kind]: grants } };
  });

/** Each resource's staged edits, saved into the form or discarded one resource at a time. */
export const $staged = createStore<Partial<Record<Resource, ResourceForm>>>({})
  .reset(editorOpened)
  .on(resourceChanged, (staged, { resource, form }) => ({ ...staged, [resource]: form }))
  .on(resourceDiscarded, (staged, resource) => {
    const { [resource]: _done, ...rest } = staged;
    return rest;
  });

/** A resource's staged edits, once applied to the form. */
const resourceApplied = createEvent<{ resource: Resource; form: EditorForm }>();
$form.on(resourceApplied, (_, { form }) => form);
$staged.on(resourceApplied, (staged, { resource }) => {
  const { [resource]: _done, ...rest } = staged;
  return rest;
});

// Saving a resource moves its staged edits into the form; one without data leaves the form,
// and with it every principal's actions on it (spec 01 §3).
sample({
  clock: resourceSaved,
  source: { form: $form, staged: $staged },
  filter: ({ form, staged }, resource) => form !== null && staged[resource] !== undefined,
  fn: ({ form, staged }, resource) => {
    const edited = staged[resource]!;
    const resources = { ...form!.resources, [resource]: edited };
    if (hasData(resource, edited)) return { resource, form: { ...form!, resources } };
    delete resources[resource];
    const grants = clearResourceGrants(form!.grants, resource);
    return { resource, form: { ...form!, resources, grants } };
  },
  target: resourceApplied,
});

/** What each resource shows: its staged edits, else what the form has. */
export const $resourceViews = combine(
  $form,
  $staged,
  (form, staged) =>
    Object.fromEntries(
      RESOURCES.map((resource) => [
        resource,
        staged[resource] ?? form?.resources[resource] ?? EMPTY_RESOURCE,
      ]),
    ) as Record<Resource, ResourceForm>,
);
export const $stagedResources = $staged.map((staged) => RESOURCES.filter((r) => staged[r]));

/**
 * What the name field says before anything is sent (spec 01 §5): an empty name; a new
 * target's name with characters its URL cannot hold, as the server refuses them (a target
 * stored before that rule keeps its name and can still be saved).
 */
function nameProblem(name: string, creating: boolean): string | undefined {
  if (name.trim() === '') return PERMISSION_MESSAGES.nameEmpty;
  return creating && targetNameError(name) ? PERMISSION_MESSAGES.illegalCharacters : undefined;
}
const isNameMessage = (text: string) =>
  text === PERMISSION_MESSAGES.nameExists ||
  text === PERMISSION_MESSAGES.nameEmpty ||
  text === PERMISSION_MESSAGES.illegalCharacters;

export const $nameError = createStore<string | null>(null)
  .reset([editorOpened, nameChanged])
  .on(saveFx.failData, (_, error) => {
    const text = errorMessage(error);
    return isNameMessage(text) ? text : null;
  });
/** Principals the confirmation names, while it is open. */
export const $confirming = createStore<string[] | null>(null)
  .reset([editorOpened, confirmAccepted, confirmCancelled])
  .on(saveFx, () => null);
export const $saving = saveFx.pending;
/** Fires when the target is stored: the page goes back to the list. */
export const saved = saveFx.done;

sample({ clock: editorOpened, target: loadFx });

// Save: the name first (spec 01 §5), then the confirmation when some principals have no
// permissions (they would not be saved), then the server.
const attempt = sample({
  clock: saveClicked,
  source: { form: $form, creating: $creating },
  filter: ({ form }) => form !== null,
  fn: ({ form, creating }) => ({ form: form!, creating }),
});
sample({
  clock: attempt,
  filter: ({ form, creating }) => nameProblem(form.name, creating) !== undefined,
  fn: ({ form, creating }) => nameProblem(form.name, creating)!,
  target: $nameError,
});
const named = sample({
  clock: attempt,
  filter: ({ form, creating }) => nameProblem(form.name, creating) === undefined,
});
sample({
  clock: named,
  filter: ({ form }) => principalsWithoutPermissions(form).length > 0,
  fn: ({ form }) => principalsWithoutPermissions(form),
  target: $confirming,
});
sample({
  clock: named,
  filter: ({ form }) => principalsWithoutPermissions(form).length === 0,
  target: saveFx,
});
sample({
  clock: confirmAccepted,
  source: { form: $form, creating: $creating },
  filter: ({ form }) => form !== null,
  fn: ({ form, creating }) => ({ form: form!, creating }),
  target: saveFx,
});
sample({
  clock: saveFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
sample({
  clock: saveFx.failData,
  filter: (error) => !isNameMessage(errorMessage(error)),
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
