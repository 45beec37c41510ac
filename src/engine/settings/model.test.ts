import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import mailScreen from '../../../schemas/screens/mail-config.screen.json';
import mailSettingsSchema from '../../../schemas/entities/mail-settings.schema.json';
import type { SettingsDescriptor } from '../../api/descriptor';
import { dismissLaterFx } from '../../shell/notifications/model';
import { createSettingsModel, settingsPayload, type SettingsForm } from './model';

const mail = { ...mailScreen, entitySchema: mailSettingsSchema } as unknown as SettingsDescriptor;

describe('settingsPayload', () => {
  it('sends the form fields as edited, emptied ones too, and nothing the server owns', () => {
    const form = { host: '', port: 25, passwordSet: true, remoteAllowList: ['x'], tls: true };
    expect(settingsPayload(mail, form)).toEqual({ host: '', port: 25, tls: true });
  });

  it('leaves out a secret left empty, so that the stored one is kept, and sends a new one', () => {
    expect(settingsPayload(mail, { host: 'smtp', password: '' })).toEqual({ host: 'smtp' });
    expect(settingsPayload(mail, { password: 's3cret' })).toEqual({ password: 's3cret' });
  });
});

describe('a settings page opened again', () => {
  it('stays busy until the stored document is read, so no edit typed meanwhile is replaced', async () => {
    const stored = { host: 'smtp.example.test', port: 25 };
    const load = vi.fn(async (): Promise<SettingsForm> => stored);
    const model = createSettingsModel({ load, save: async (form) => form, savedText: 'Saved' });
    const scope = fork({ handlers: [[dismissLaterFx, vi.fn(async () => -1)]] });
    await allSettled(model.pageOpened, { scope });
    expect(scope.getState(model.$busy)).toBe(false);

    // The second visit shows the document of the first at once, and reads it again.
    let answerLoad: (form: SettingsForm) => void = () => {};
    load.mockImplementationOnce(() => new Promise((resolve) => (answerLoad = resolve)));
    const opened = allSettled(model.pageOpened, { scope });
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(scope.getState(model.$form)).toEqual(stored);
    expect(scope.getState(model.$busy)).toBe(true);
    answerLoad({ ...stored, port: 587 });
    await opened;
    expect(scope.getState(model.$busy)).toBe(false);
    expect(scope.getState(model.$form)).toEqual({ ...stored, port: 587 });
    expect(scope.getState(model.$dirty)).toBe(false);
  });
});
