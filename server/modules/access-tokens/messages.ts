/** Access-token and API-key messages (docs/access-tokens.md). */
export const TOKEN_MESSAGES = {
  invalidToken: 'The access token is invalid, expired or revoked',
  badScope: (scope: string) =>
    `Unsupported scope '${scope}': use applied-permissions/user, applied-permissions/admin or applied-permissions/groups:{names}`,
  adminScopeOnly: 'Only an administrator may create admin or group scoped tokens',
  othersTokensOnlyForAdmins: 'Only an administrator may create tokens for other users',
  unknownUser: (name: string) => `User '${name}' could not be found.`,
  unknownGroup: (name: string) => `Group '${name}' could not be found.`,
  tooLong: (maxSeconds: number) => `expires_in may be at most ${maxSeconds} seconds`,
  notFound: (id: string) => `Token '${id}' could not be found.`,
  revoked: 'Token revoked',
  badLegacyScope: (scope: string) =>
    `Unsupported scope '${scope}': use member-of-groups:* or member-of-groups:{names}, with api:* or without`,
  notRefreshable:
    "Depot's access tokens are not refreshable: create a new one before this one expires",
  revokeNeedsToken: 'Name the token to revoke: token={the token} or token_id={its id}',
  noApiKey: 'No API key has been created for this user',
  apiKeyExists: 'An API key already exists: regenerate it instead',
  apiKeyRevoked: 'API key revoked',
  subjectMismatch: 'The user name does not match the token',
  widerThanParent: 'A token may only create tokens of its own scope or a narrower one',
  outlivesParent: (seconds: number) =>
    `A token may only create tokens that expire no later than itself: expires_in may be at most ${seconds} seconds`,
} as const;
