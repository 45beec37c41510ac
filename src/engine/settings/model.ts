import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { call } from '../../api/client';
import type { SettingsDescriptor } from '../../api/descriptor';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { sameFormData } from '../form/sameFormData';
import { settingsSavedMessage } from '../messages';

export type SettingsForm = Record<string, unknown>;

/** Any settings document was saved: what the shell shows from settings (banner, name) is stale. */
export const settingsSaved = createEvent();

/**
 * The model of a page that edits one settings document (security, mail): load, edit, save
 * with a notification, reset to what is saved, and the dirty flag for the leave guard.
 */
export function createSettingsModel(options: {
  load: () => Promise<SettingsForm>;
  save: (form: SettingsForm) => Promise<SettingsForm>;
  savedText: string;
}) {
  const pageOpened = createEvent();
  const formChanged = createEvent<SettingsForm>();
  const saveClicked = createEvent<SettingsForm>();
  const resetClicked = createEvent();

  const loadFx = createEffect(options.load);
  const saveFx = createEffect(options.save);

  const $saved = createStore<SettingsForm | null>(null)
    .on(loadFx.doneData, (_, form) => form)
    .on(saveFx.doneData, (_, form) => form);
  const $form = createStore<SettingsForm | null>(null)
    .on(formChanged, (_, form) => form)
    .on($saved.updates, (_, saved) => saved);
  const $error = createStore<string | null>(null)
    .on([loadFx.failData, saveFx.failData], (_, error) => errorMessage(error))
    .reset(saveClicked, pageOpened);
  const $dirty = combine(
    $saved,
    $form,
    (saved, form) => saved !== null && form !== null && !sameFormData(saved, form),
  );

  /**
   * Saving, or reading the document when the page opens again: the form stays locked until
   * the answer is in it, since a visit shows the last document at once and the answer
   * replaces the form (an edit typed meanwhile would be lost).
   */
  const $busy = combine(saveFx.pending, loadFx.pending, (saving, loading) => saving || loading);

  sample({ clock: pageOpened, target: loadFx });
  sample({ clock: resetClicked, source: $saved, target: $form });
  sample({ clock: saveClicked, target: saveFx });
  sample({ clock: saveFx.done, target: settingsSaved });
  sample({
    clock: saveFx.done,
    fn: () => ({ kind: 'success' as const, text: options.savedText }),
    target: notificationShown,
  });

  return {
    pageOpened,
    formChanged,
    saveClicked,
    resetClicked,
    loadFx,
    saveFx,
    $saved,
    $form,
    $error,
    $dirty,
    $saving: saveFx.pending,
    $busy,
  };
}

export type SettingsModel = ReturnType<typeof createSettingsModel>;

/**
 * What Save sends of a settings document: the form's writable fields as edited (emptied ones
 * too), but a secret left empty is not sent, so that the server keeps the stored one.
 */
export function settingsPayload(descriptor: SettingsDescriptor, form: SettingsForm): SettingsForm {
  const properties = descriptor.entitySchema.properties ?? {};
  const payload: SettingsForm = {};
  for (const field of descriptor.form.fields) {
    const property = properties[field];
    if (!property || property.readOnly === true || !(field in form)) continue;
    const value = form[field];
    if (property.writeOnly === true && (value === undefined || value === null || value === ''))
      continue;
    payload[field] = value;
  }
  return payload;
}

/** One model per settings screen, made on first use: its state outlives a visit to another page. */
const modelsByScreen = new Map<string, SettingsModel>();

/** The model of a settings screen the engine renders, from its descriptor's get and update calls. */
export function settingsModelOf(descriptor: SettingsDescriptor): SettingsModel {
  const known = modelsByScreen.get(descriptor.id);
  if (known) return known;
  const { get, update } = descriptor.api;
  const model = createSettingsModel({
    load: () => call<SettingsForm>(get.method, get.path),
    save: (form) => call<SettingsForm>(update.method, update.path, { json: form }),
    savedText: settingsSavedMessage(descriptor.title),
  });
  modelsByScreen.set(descriptor.id, model);
  return model;
}
