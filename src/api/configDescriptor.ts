import { call } from './client';

/** Spec 03 "Backups, descriptors, keys": the configuration and security settings as XML. */
export const configDescriptorApi = {
  /** `GET ui/configdescriptor`: the whole configuration as XML text. */
  get: () => call<string>('GET', '/ui/configdescriptor'),
  /** `PUT ui/configdescriptor`: a whole document applied, all or nothing; `info` says how. */
  save: (configXml: string) =>
    call<{ info: string }>('PUT', '/ui/configdescriptor', { json: { configXml } }),
  /** `GET ui/securitydescriptor`: the security settings as XML, read-only. */
  security: () => call<string>('GET', '/ui/securitydescriptor'),
};
