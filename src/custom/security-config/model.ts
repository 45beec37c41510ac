import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { call } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { sameFormData } from '../../engine/form/sameFormData';
import { SECURITY_LABELS } from './messages';
import type { SecurityConfigForm } from './schema';

export const pageOpened = createEvent();
export const formChanged = createEvent<SecurityConfigForm>();
export const saveClicked = createEvent<SecurityConfigForm>();
export const resetClicked = createEvent();

/** The list of allowed private addresses belongs to remote repositories: never sent from here. */
const withoutAllowList = ({ remoteAllowList: _omit, ...rest }: SecurityConfigForm) => rest;

export const fetchConfigFx = createEffect(() =>
  call<SecurityConfigForm>('GET', '/ui/securityconfig'),
);
export const saveConfigFx = createEffect((form: SecurityConfigForm) =>
  call<SecurityConfigForm>('PUT', '/ui/securityconfig', { json: withoutAllowList(form) }),
);

/** What the server holds, and what the form shows. */
export const $saved = createStore<SecurityConfigForm | null>(null)
  .on(fetchConfigFx.doneData, (_, config) => withoutAllowList(config))
  .on(saveConfigFx.doneData, (_, config) => withoutAllowList(config));
export const $form = createStore<SecurityConfigForm | null>(null)
  .on(formChanged, (_, form) => form)
  .on($saved.updates, (_, saved) => saved);
export const $error = createStore<string | null>(null)
  .on([fetchConfigFx.failData, saveConfigFx.failData], (_, error) => errorMessage(error))
  .reset(saveClicked, pageOpened);
export const $dirty = combine(
  $saved,
  $form,
  (saved, form) => saved !== null && form !== null && !sameFormData(saved, form),
);
export const $saving = saveConfigFx.pending;

sample({ clock: pageOpened, target: fetchConfigFx });
sample({ clock: resetClicked, source: $saved, target: $form });
sample({ clock: saveClicked, target: saveConfigFx });
sample({
  clock: saveConfigFx.done,
  fn: () => ({ kind: 'success' as const, text: SECURITY_LABELS.saved }),
  target: notificationShown,
});
