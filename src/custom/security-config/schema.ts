import type { RJSFSchema } from '@rjsf/utils';

/**
 * The form of the security settings: the server's `PUT /ui/securityconfig` shape
 * (server/modules/security-config/schema.ts) with titles and help. The remote allow list
 * is set with the remote repositories and is not on this page.
 */
export const securityConfigSchema: RJSFSchema = {
  type: 'object',
  properties: {
    anonAccessEnabled: {
      type: 'boolean',
      title: 'Allow Anonymous Access',
      description: 'Visitors who are not signed in get the permissions of the anonymous user.',
    },
    hideUnauthorizedResources: {
      type: 'boolean',
      title: 'Hide Existence of Unauthorized Resources',
      description: 'Answer "not found" instead of "forbidden" for what a user may not read.',
    },
    rememberMeEnabled: {
      type: 'boolean',
      title: 'Enable "Remember Me" at Login',
      description: 'A remembered session lasts 14 days instead of ending with the browser.',
    },
    userLockPolicy: {
      type: 'object',
      title: 'User Lock Policy',
      properties: {
        enabled: { type: 'boolean', title: 'Lock Users After Failed Login Attempts' },
        loginAttempts: {
          type: 'integer',
          title: 'Max Failed Login Attempts',
          minimum: 1,
          maximum: 100,
        },
      },
    },
    passwordPolicy: {
      type: 'object',
      title: 'Password Policy',
      properties: {
        minLength: { type: 'integer', title: 'Minimum Length', minimum: 8, maximum: 128 },
        uppercase: { type: 'boolean', title: 'Require an Uppercase Letter' },
        lowercase: { type: 'boolean', title: 'Require a Lowercase Letter' },
        digit: { type: 'boolean', title: 'Require a Digit' },
        specialChar: { type: 'boolean', title: 'Require a Special Character' },
        historySize: {
          type: 'integer',
          title: 'Do Not Repeat the Last N Passwords',
          description: '0 allows any earlier password.',
          minimum: 0,
          maximum: 24,
        },
        expiryDays: {
          type: 'integer',
          title: 'Password Expires After (Days)',
          description: '0: passwords never expire.',
          minimum: 0,
          maximum: 3650,
        },
      },
    },
    mfa: {
      type: 'object',
      title: 'Multi-Factor Authentication',
      properties: {
        enabled: { type: 'boolean', title: 'Enable Google Authenticator (TOTP)' },
        enforced: { type: 'boolean', title: 'Require MFA for Every User' },
      },
    },
  },
};
