const flag = { type: 'boolean' };
const count = (maximum: number) => ({ type: 'integer', minimum: 0, maximum });

/** The body of PUT /ui/securityconfig: every field optional, nothing unknown accepted. */
export const securityConfigChangeSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    anonAccessEnabled: flag,
    hideUnauthorizedResources: flag,
    rememberMeEnabled: flag,
    remoteAllowList: {
      type: 'array',
      maxItems: 100,
      items: { type: 'string', maxLength: 64, pattern: '^[0-9a-fA-F.:/]+$' },
    },
    userLockPolicy: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: flag, loginAttempts: { type: 'integer', minimum: 1, maximum: 100 } },
    },
    passwordPolicy: {
      type: 'object',
      additionalProperties: false,
      properties: {
        // 8 is the floor: the user form refuses shorter passwords whatever the policy.
        minLength: { type: 'integer', minimum: 8, maximum: 128 },
        uppercase: flag,
        lowercase: flag,
        digit: flag,
        specialChar: flag,
        historySize: count(24),
        expiryDays: count(3650),
      },
    },
    mfa: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: flag, enforced: flag },
    },
  },
} as const;
