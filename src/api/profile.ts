import { call, http } from './client';

/** For the Access API, which lives at the root, not under the console's prefix. */
const rootHttp = http.extend({ prefixUrl: '/' });

/** An access token as /access/api/v1/tokens answers it (JFrog Access's shape). */
export interface IssuedToken {
  access_token: string;
  token_id: string;
  expires_in?: number;
  scope: string;
}

/** The profile's own calls: email, API key, identity token (docs/user-profile.md). */
export const profileApi = {
  updateEmail: (body: { email: string; password: string }) =>
    call<{ info: string }>('PUT', '/ui/userProfile', { json: body }),
  apiKey: () => call<{ apiKey?: string }>('GET', '/ui/userApiKey'),
  createApiKey: () => call<{ apiKey: string }>('POST', '/ui/userApiKey'),
  regenerateApiKey: () => call<{ apiKey: string }>('PUT', '/ui/userApiKey'),
  revokeApiKey: () => call<void>('DELETE', '/ui/userApiKey'),
  /** An identity token: the user's own permissions, a year at most (docs/access-tokens.md). */
  createIdentityToken: () =>
    call<IssuedToken>(
      'POST',
      '/access/api/v1/tokens',
      {
        json: {
          scope: 'applied-permissions/user',
          description: 'Identity token generated in the user profile',
          expires_in: 365 * 24 * 3600,
        },
      },
      rootHttp,
    ),
};
