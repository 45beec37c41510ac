import { call } from '../../api/client';
import { createSettingsModel, type SettingsForm } from '../../engine/settings/model';
import { SECURITY_LABELS } from './messages';

/** The list of allowed private addresses belongs to remote repositories: never sent from here. */
const withoutAllowList = ({ remoteAllowList: _omit, ...rest }: SettingsForm) => rest;

export const securityConfigModel = createSettingsModel({
  load: async () => withoutAllowList(await call<SettingsForm>('GET', '/ui/securityconfig')),
  save: async (form) =>
    withoutAllowList(
      await call<SettingsForm>('PUT', '/ui/securityconfig', { json: withoutAllowList(form) }),
    ),
  savedText: SECURITY_LABELS.saved,
});
