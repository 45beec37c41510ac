import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { sameFormData } from '../../engine/form/sameFormData';

export type SettingsForm = Record<string, unknown>;

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

  sample({ clock: pageOpened, target: loadFx });
  sample({ clock: resetClicked, source: $saved, target: $form });
  sample({ clock: saveClicked, target: saveFx });
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
  };
}

export type SettingsModel = ReturnType<typeof createSettingsModel>;
