/** Sign-in messages, shared by the server, the console and the tests. */
export const AUTH_MESSAGES = {
  badCredentials: 'Bad credentials',
  locked: 'User is locked. Please contact your system administrator.',
  credentialsExpired: 'Your password has expired. Please choose a new password.',
  uiAccessDisabled: 'UI access is disabled for this user',
  passwordsDiffer: 'Password fields must be equal',
  passwordPolicy: 'Password is not satisfy the policy',
  passwordUnchanged: 'The new password must differ from the current one',
  csrf: 'Missing or invalid CSRF token',
  authenticationRequired: 'Authentication is required',
  notAuthorized: 'You are not authorized to perform this action',
  passwordSignInRequired:
    'Sign in with your password to do this: an access token or API key cannot create, show or change credentials',
} as const;

/** The code the console keys its credentials-expired path on (spec 01 §4). */
export const CREDENTIALS_EXPIRED = 'CREDENTIALS_EXPIRED';
