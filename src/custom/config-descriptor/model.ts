import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { configDescriptorApi } from '../../api/configDescriptor';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { CONFIG_DESCRIPTOR_LABELS as L } from './messages';

export const configPageMounted = createEvent();
export const securityPageMounted = createEvent();
export const xmlChanged = createEvent<string>();
export const saveClicked = createEvent();
export const resetClicked = createEvent();

export const fetchConfigFx = createEffect(configDescriptorApi.get);
export const saveConfigFx = createEffect(configDescriptorApi.save);
export const fetchSecurityFx = createEffect(configDescriptorApi.security);

/** The XML as the server answered it, and as the admin is editing it. */
export const $savedXml = createStore<string | null>(null).on(
  fetchConfigFx.doneData,
  (_, xml) => xml,
);
export const $xml = createStore<string | null>(null)
  .on(fetchConfigFx.doneData, (_, xml) => xml)
  .on(xmlChanged, (_, xml) => xml);
export const $fetchError = createStore<string | null>(null)
  .on(fetchConfigFx, () => null)
  .on(fetchConfigFx.failData, (_, error) => errorMessage(error, L.fetchFailed));
export const $securityXml = createStore<string | null>(null).on(
  fetchSecurityFx.doneData,
  (_, xml) => xml,
);
export const $securityError = createStore<string | null>(null)
  .on(fetchSecurityFx, () => null)
  .on(fetchSecurityFx.failData, (_, error) => errorMessage(error, L.securityFailed));

export const $dirty = combine($xml, $savedXml, (xml, saved) => xml !== saved);
/**
 * Saving, or reading the document back after a save: the editor stays locked until the
 * stored XML is in it, so that an edit typed meanwhile is not replaced by the read-back.
 */
export const $busy = combine(
  saveConfigFx.pending,
  fetchConfigFx.pending,
  (saving, reading) => saving || reading,
);
export const $canSave = combine(
  $dirty,
  $busy,
  $xml,
  (dirty, busy, xml) => dirty && !busy && !!xml?.trim(),
);

// when a page opens, read its XML
sample({ clock: configPageMounted, target: fetchConfigFx });
sample({ clock: securityPageMounted, target: fetchSecurityFx });

// when Save is clicked with a change, send the whole document
sample({
  clock: saveClicked,
  source: $xml,
  filter: $canSave,
  fn: (xml) => xml!,
  target: saveConfigFx,
});

// when Reset is clicked, go back to the XML as saved
sample({ clock: resetClicked, source: $savedXml, fn: (xml) => xml ?? '', target: $xml });

// when saving works, show the server's message and read the document back as stored
sample({
  clock: saveConfigFx.doneData,
  fn: (answer) => ({ kind: 'success' as const, text: answer.info }),
  target: notificationShown,
});
sample({ clock: saveConfigFx.done, target: fetchConfigFx });

// when saving fails, say why (the answer names the place in the document)
sample({
  clock: saveConfigFx.failData,
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, L.saveFailed) }),
  target: notificationShown,
});
