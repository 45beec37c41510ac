import type { Database } from '../../db/database.ts';

/** Instance-wide security settings (GET/PUT /ui/securityconfig). */
export interface SecurityConfig {
  anonAccessEnabled: boolean;
  userLockPolicy: { enabled: boolean; loginAttempts: number };
  /** Private or reserved addresses (IPs or CIDRs) remote repositories may fetch from anyway. */
  remoteAllowList: string[];
}

export const DEFAULT_SECURITY_CONFIG: SecurityConfig = {
  anonAccessEnabled: false,
  userLockPolicy: { enabled: true, loginAttempts: 5 },
  remoteAllowList: [],
};

const KEY = 'security';

export function createSecurityConfigService(db: Database) {
  return {
    /** Read from the database every time: every node of a cluster sees a change at once. */
    async get(): Promise<SecurityConfig> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', KEY)
        .executeTakeFirst();
      const stored = (row?.value ?? {}) as Partial<SecurityConfig>;
      return {
        anonAccessEnabled: stored.anonAccessEnabled ?? DEFAULT_SECURITY_CONFIG.anonAccessEnabled,
        userLockPolicy: { ...DEFAULT_SECURITY_CONFIG.userLockPolicy, ...stored.userLockPolicy },
        remoteAllowList: stored.remoteAllowList ?? DEFAULT_SECURITY_CONFIG.remoteAllowList,
      };
    },

    async update(change: Partial<SecurityConfig>): Promise<SecurityConfig> {
      const current = await this.get();
      const next: SecurityConfig = {
        anonAccessEnabled: change.anonAccessEnabled ?? current.anonAccessEnabled,
        userLockPolicy: { ...current.userLockPolicy, ...change.userLockPolicy },
        remoteAllowList: change.remoteAllowList ?? current.remoteAllowList,
      };
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
