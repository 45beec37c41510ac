import { call, http } from '../../api/client';
import type { IssuedToken } from '../../api/profile';

/** The Access API lives at the root, not under the console's prefix. */
const rootHttp = http.extend({ prefixUrl: '/' });

export interface TokenRow {
  token_id: string;
  subject: string;
  scope: string;
  description: string;
  issuer: string;
  issued_at: number;
  expiry?: number;
}

export interface TokenRequest {
  username: string;
  scope: string;
  expires_in: number;
  description: string;
}

export const tokensApi = {
  list: async () =>
    (await call<{ tokens: TokenRow[] }>('GET', '/access/api/v1/tokens', {}, rootHttp)).tokens,
  create: (request: TokenRequest) =>
    call<IssuedToken>('POST', '/access/api/v1/tokens', { json: request }, rootHttp),
  revoke: (id: string) =>
    call<void>('DELETE', `/access/api/v1/tokens/${encodeURIComponent(id)}`, {}, rootHttp),
};
