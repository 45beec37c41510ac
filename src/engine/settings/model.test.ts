import { describe, expect, it } from 'vitest';
import mailScreen from '../../../schemas/screens/mail-config.screen.json';
import mailSettingsSchema from '../../../schemas/entities/mail-settings.schema.json';
import type { SettingsDescriptor } from '../../api/descriptor';
import { settingsPayload } from './model';

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
