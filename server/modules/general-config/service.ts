import type { Database } from '../../db/database.ts';

/** Instance-wide general settings (GET/PUT /ui/generalConfig). */
export interface GeneralConfig {
  /** Global offline mode: no remote repository contacts its upstream; caches still serve. */
  offlineMode: boolean;
}

export const DEFAULT_GENERAL_CONFIG: GeneralConfig = { offlineMode: false };

const KEY = 'general';

export function createGeneralConfigService(db: Database) {
  return {
    /** Read from the database every time: every node of a cluster sees a change at once. */
    async get(): Promise<GeneralConfig> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', KEY)
        .executeTakeFirst();
      const stored = (row?.value ?? {}) as Partial<GeneralConfig>;
      return { offlineMode: stored.offlineMode ?? DEFAULT_GENERAL_CONFIG.offlineMode };
    },

    async update(change: Partial<GeneralConfig>): Promise<GeneralConfig> {
      const current = await this.get();
      const next: GeneralConfig = { offlineMode: change.offlineMode ?? current.offlineMode };
      const value = JSON.stringify(next);
      await db
        .insertInto('settings')
        .values({ key: KEY, value })
        .onConflict((c) => c.column('key').doUpdateSet({ value }))
        .execute();
      return next;
    },
  };
}

export type GeneralConfigService = ReturnType<typeof createGeneralConfigService>;
