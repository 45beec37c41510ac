import { call } from './client';

/** A pending `npm login` as the console shows it (server/formats/npm/web-login.ts). */
export interface NpmLoginRequest {
  repoKey: string;
  createdAt: string;
  state: 'pending' | 'approved' | 'denied';
}

const byId = (loginId: string) => `/npm/login/${encodeURIComponent(loginId)}`;

/** npm's web login, approved or denied by the signed-in user (docs/npm.md). */
export const npmLoginApi = {
  describe: (loginId: string) => call<NpmLoginRequest>('GET', byId(loginId)),
  approve: (loginId: string) => call<{ info: string }>('POST', `${byId(loginId)}/approve`),
  deny: (loginId: string) => call<{ info: string }>('POST', `${byId(loginId)}/deny`),
};
