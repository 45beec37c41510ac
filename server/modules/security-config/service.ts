import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { createReadCache, deepFreeze } from '../../cache/read-cache.ts';

/** What a password must be; 0 turns a number rule off (docs/password-policy.md). */
export interface PasswordPolicy {
  minLength: number;
  uppercase: boolean;
  lowercase: boolean;
  digit: boolean;
  specialChar: boolean;
  /** A new password may not repeat any of this many earlier ones. */
  historySize: number;
  /** Days a password lasts before the user must choose a new one. */
  expiryDays: number;
}

/** Instance-wide security settings (GET/PUT /ui/securityconfig, the Security Configuration screen). */
export interface SecurityConfig {
  anonAccessEnabled: boolean;
  /** Say 404 rather than 403 for what a caller may not read, so names do not leak. */
  hideUnauthorizedResources: boolean;
  /** The login screen offers "Remember me" (a 14-day session instead of a browser one). */
  rememberMeEnabled: boolean;
  userLockPolicy: { enabled: boolean; loginAttempts: number };
  passwordPolicy: PasswordPolicy;
  /** TOTP: users may enroll when enabled; when enforced, every sign-in needs it. */
  mfa: { enabled: boolean; enforced: boolean };
  /** Private or reserved addresses (IPs or CIDRs) remote repositories may fetch from anyway. */
  remoteAllowList: string[];
}

export const DEFAULT_SECURITY_CONFIG: SecurityConfig = {
  anonAccessEnabled: false,
  hideUnauthorizedResources: false,
  rememberMeEnabled: true,
  userLockPolicy: { enabled: true, loginAttempts: 5 },
  passwordPolicy: {
    minLength: 8,
    uppercase: false,
    lowercase: false,
    digit: false,
    specialChar: false,
    historySize: 0,
    expiryDays: 0,
  },
  mfa: { enabled: true, enforced: false },
  remoteAllowList: [],
};

export type SecurityConfigChange = Partial<
  Omit<SecurityConfig, 'userLockPolicy' | 'passwordPolicy' | 'mfa'>
> & {
  userLockPolicy?: Partial<SecurityConfig['userLockPolicy']>;
  passwordPolicy?: Partial<PasswordPolicy>;
  mfa?: Partial<SecurityConfig['mfa']>;
};

/** Each nested setting merged field by field, so a change names only what it changes. */
function merged(base: SecurityConfig, change: SecurityConfigChange): SecurityConfig {
  return {
    ...base,
    ...change,
    userLockPolicy: { ...base.userLockPolicy, ...change.userLockPolicy },
    passwordPolicy: { ...base.passwordPolicy, ...change.passwordPolicy },
    mfa: { ...base.mfa, ...change.mfa },
  };
}

const KEY = 'security' as const;

/**
 * Sign-in and basic auth consult these settings on every request, so a read is kept for a
 * second: a write on this node clears it at once, another node's within that second.
 */
const CACHE_MS = 1000;

export function createSecurityConfigService(db: Database, changes?: TableChanges) {
  const cache = createReadCache<typeof KEY, SecurityConfig>({ ttlMs: CACHE_MS, maxEntries: 1 });
  changes?.onChange(['settings'], cache.clear);

  async function read(): Promise<SecurityConfig> {
    const row = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', KEY)
      .executeTakeFirst();
    return deepFreeze(merged(DEFAULT_SECURITY_CONFIG, (row?.value ?? {}) as SecurityConfigChange));
  }

  return {
    get(): Promise<SecurityConfig> {
      return changes ? cache.get(KEY, read) : read();
    },

    /** The settings `get` would answer from memory right now, if it has them. */
    peek(): SecurityConfig | undefined {
      return cache.peek(KEY);
    },

    async update(change: SecurityConfigChange): Promise<SecurityConfig> {
      const next = merged(await this.get(), change);
      await db
        .insertInto('settings')
        .values({ key: KEY, value: JSON.stringify(next) })
        .onConflict((c) => c.column('key').doUpdateSet({ value: JSON.stringify(next) }))
        .execute();
      return next;
    },
  };
}

export type SecurityConfigService = ReturnType<typeof createSecurityConfigService>;
