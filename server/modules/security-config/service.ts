import { loadSchemaRegistry } from '../../schemas/registry.ts';
import { documentDefaults, type EntityDocument } from '../entities/documents.ts';
import type { SingleStore } from '../entities/single-store.ts';
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

/** The settings nobody changed yet: the defaults of schemas/entities/security-settings. */
export const DEFAULT_SECURITY_CONFIG = deepFreeze(
  documentDefaults(loadSchemaRegistry().entities.get('security-settings')!),
) as unknown as SecurityConfig;

export type SecurityConfigChange = Partial<
  Omit<SecurityConfig, 'userLockPolicy' | 'passwordPolicy' | 'mfa'>
> & {
  userLockPolicy?: Partial<SecurityConfig['userLockPolicy']>;
  passwordPolicy?: Partial<PasswordPolicy>;
  mfa?: Partial<SecurityConfig['mfa']>;
};

const KEY = 'security' as const;

/**
 * Sign-in and basic auth consult these settings on every request, so a read is kept for a
 * second: a write on this node clears it at once, another node's within that second.
 */
const CACHE_MS = 1000;

/**
 * The security settings, a single document of the schema engine (its calls are the engine's,
 * from schemas/screens/security-config.screen.json); sign-in and access read them here.
 */
export function createSecurityConfigService(store: SingleStore, changes?: TableChanges) {
  const cache = createReadCache<typeof KEY, SecurityConfig>({ ttlMs: CACHE_MS, maxEntries: 1 });
  changes?.onChange(['settings'], cache.clear);

  async function read(): Promise<SecurityConfig> {
    return deepFreeze(await store.read()) as unknown as SecurityConfig;
  }

  return {
    get(): Promise<SecurityConfig> {
      return changes ? cache.get(KEY, read) : read();
    },

    /** The settings `get` would answer from memory right now, if it has them. */
    peek(): SecurityConfig | undefined {
      return cache.peek(KEY);
    },

    /** Nested settings merge field by field, so a change names only what it changes. */
    async update(change: SecurityConfigChange, actor = 'system'): Promise<SecurityConfig> {
      const { document } = await store.update(change as EntityDocument, actor);
      return document as unknown as SecurityConfig;
    },
  };
}

export type SecurityConfigService = ReturnType<typeof createSecurityConfigService>;
