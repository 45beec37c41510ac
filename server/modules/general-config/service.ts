import type { FolderDownloadLimits } from '../../config.ts';
import type { SingleStore } from '../entities/single-store.ts';

/** Instance-wide general settings (GET/PUT /ui/generalConfig, schemas/entities/general-settings). */
export interface GeneralConfig {
  /** The console's name for this instance; empty: DEPOT_SERVER_NAME, else Depot. */
  serverName?: string;
  /** The address users reach Depot at; absent: each answer names its request's address. */
  baseUrl?: string;
  /** Global offline mode: no remote repository contacts its upstream; caches still serve. */
  offlineMode: boolean;
  /** The largest file a console deploy may send, in MiB; 0: no limit. */
  fileUploadMaxSizeMb: number;
  folderDownloadMaxSizeMb: number;
  folderDownloadMaxFiles: number;
  folderDownloadMaxConcurrent: number;
  trashcanEnabled: boolean;
  trashcanRetentionDays: number;
  customMessageEnabled: boolean;
  customMessage?: string;
  customMessageColor: string;
}

/** The banner the console shows on every page, when an admin turned it on. */
export interface CustomMessage {
  message: string;
  color: string;
}

/**
 * The general settings, a single document of the schema engine (its calls are the engine's,
 * from schemas/screens/general-config.screen.json); features read them here.
 *
 * @param folderDownloadOverrides limits set in the environment, which win over the document's.
 */
export function createGeneralConfigService(
  store: SingleStore,
  folderDownloadOverrides: Partial<FolderDownloadLimits> = {},
) {
  /** Read from the database every time: every node of a cluster sees a change at once. */
  const get = async (): Promise<GeneralConfig> => (await store.read()) as unknown as GeneralConfig;

  return {
    get,

    async update(change: Partial<GeneralConfig>, actor = 'system'): Promise<GeneralConfig> {
      return (await store.update(change, actor)).document as unknown as GeneralConfig;
    },

    /** The base URL without a trailing slash, or undefined when none is set. */
    async baseUrl(): Promise<string | undefined> {
      return (await get()).baseUrl?.replace(/\/+$/, '') || undefined;
    },

    /** Folder download limits: the document's, each overridden by its environment variable. */
    async folderDownloadLimits(): Promise<FolderDownloadLimits> {
      const config = await get();
      return {
        maxSizeMb: config.folderDownloadMaxSizeMb,
        maxFiles: config.folderDownloadMaxFiles,
        maxConcurrent: config.folderDownloadMaxConcurrent,
        ...folderDownloadOverrides,
      };
    },

    /** The banner to show, or undefined when it is off or has no text. */
    async customMessage(): Promise<CustomMessage | undefined> {
      const config = await get();
      const message = config.customMessage?.trim();
      if (!config.customMessageEnabled || !message) return undefined;
      return { message, color: config.customMessageColor };
    },
  };
}

export type GeneralConfigService = ReturnType<typeof createGeneralConfigService>;
