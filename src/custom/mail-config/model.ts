import { createEffect, createEvent, createStore, sample } from 'effector';
import { call } from '../../api/client';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { createSettingsModel, type SettingsForm } from '../../engine/settings/model';
import { MAIL_LABELS } from './messages';

/** The server answers `passwordSet`, never the password; an empty field keeps the stored one. */
function toRequest({ passwordSet: _flag, password, ...rest }: SettingsForm) {
  return password ? { ...rest, password } : rest;
}

export const mailModel = createSettingsModel({
  load: () => call<SettingsForm>('GET', '/ui/mail'),
  save: (form) => call<SettingsForm>('PUT', '/ui/mail', { json: toRequest(form) }),
  savedText: MAIL_LABELS.saved,
});

export const testRequested = createEvent<string>();
export const sendTestFx = createEffect((body: SettingsForm) =>
  call<{ info: string }>('POST', '/ui/mail/test', { json: body }),
);
export const $testError = createStore<string | null>(null)
  .on(sendTestFx.failData, (_, error) => errorMessage(error))
  .reset(testRequested);

// when a test is asked for, send it with the form as it is now
sample({
  clock: testRequested,
  source: mailModel.$form,
  fn: (form, to) => ({ ...toRequest(form ?? {}), to }),
  target: sendTestFx,
});
sample({
  clock: sendTestFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
