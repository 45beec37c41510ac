import type { SingleStore } from '../entities/single-store.ts';

/** Instance-wide general settings (GET/PUT /ui/generalConfig, schemas/entities/general-settings). */
export interface GeneralConfig {
  /** The address users reach Depot at; absent: each answer names its request's address. */
  baseUrl?: string;
  /** Global offline mode: no remote repository contacts its upstream; caches still serve. */
  offlineMode: boolean;
}

/**
 * The general settings, a single document of the schema engine (its calls are the engine's,
 * from schemas/screens/general-config.screen.json); features read them here.
 */
export function createGeneralConfigService(store: SingleStore) {
  return {
    /** Read from the database every time: every node of a cluster sees a change at once. */
    async get(): Promise<GeneralConfig> {
      return (await store.read()) as unknown as GeneralConfig;
    },

    async update(change: Partial<GeneralConfig>, actor = 'system'): Promise<GeneralConfig> {
      return (await store.update(change, actor)).document as unknown as GeneralConfig;
    },
  };
}

export type GeneralConfigService = ReturnType<typeof createGeneralConfigService>;
