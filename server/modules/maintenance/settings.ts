import type { Database } from '../../db/database.ts';
import { BadRequest } from '../../errors.ts';
import { isValidCron } from '../../jobs/cron.ts';
import { MAINTENANCE_MESSAGES } from './messages.ts';

/** The Maintenance form (spec 03 §3). */
export interface MaintenanceSettings {
  garbageCollectorCron: string;
  cleanUnusedCachedCron: string;
  cleanVirtualRepoCron: string;
  quotaControl: boolean;
  /** Percent of the filestore's disk; -1 while quota control is off (spec 03 §9). */
  storageLimit: number;
  storageWarning: number;
}

/**
 * Spec 03 §9 for the quota. The crons are Quartz: garbage collection nightly at 02:00,
 * the unused-cache cleanup at 05:12 and the virtual cleanup at 00:12, off the full hour so
 * they do not start with everything else scheduled on it.
 */
export const DEFAULT_MAINTENANCE: MaintenanceSettings = {
  garbageCollectorCron: '0 0 2 * * ?',
  cleanUnusedCachedCron: '0 12 5 * * ?',
  cleanVirtualRepoCron: '0 12 0 * * ?',
  quotaControl: false,
  storageLimit: -1,
  storageWarning: -1,
};

export const CRON_FIELDS = [
  'garbageCollectorCron',
  'cleanUnusedCachedCron',
  'cleanVirtualRepoCron',
] as const;

const SETTINGS_KEY = 'maintenance';

const isPercentStep = (value: number) =>
  Number.isInteger(value) && value >= 0 && value <= 100 && value % 5 === 0;

/** Rejects what the form would not let through, naming the field at fault. */
function validate(settings: MaintenanceSettings): void {
  for (const field of CRON_FIELDS) {
    if (settings[field].trim() === '') throw new BadRequest(MAINTENANCE_MESSAGES.required, field);
    if (!isValidCron(settings[field]))
      throw new BadRequest(MAINTENANCE_MESSAGES.invalidCron, field);
  }
  for (const field of ['storageLimit', 'storageWarning'] as const) {
    const value = settings[field];
    // Off, -1 means "not set"; on, both must be real percentages.
    if (!isPercentStep(value) && (settings.quotaControl || value !== -1))
      throw new BadRequest(MAINTENANCE_MESSAGES.percentSteps, field);
  }
  if (settings.quotaControl && settings.storageWarning >= settings.storageLimit)
    throw new BadRequest(MAINTENANCE_MESSAGES.warningBelowLimit, 'storageWarning');
}

/** The maintenance settings, one row of `settings`, defaults until an admin saves. */
export function createMaintenanceSettings(db: Database) {
  const listeners = new Set<(settings: MaintenanceSettings) => void>();
  return {
    async get(): Promise<MaintenanceSettings> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', SETTINGS_KEY)
        .executeTakeFirst();
      return { ...DEFAULT_MAINTENANCE, ...(row?.value as Partial<MaintenanceSettings>) };
    },

    async update(next: MaintenanceSettings): Promise<MaintenanceSettings> {
      const settings = {
        ...next,
        garbageCollectorCron: next.garbageCollectorCron.trim(),
        cleanUnusedCachedCron: next.cleanUnusedCachedCron.trim(),
        cleanVirtualRepoCron: next.cleanVirtualRepoCron.trim(),
      };
      validate(settings);
      const value = JSON.stringify(settings);
      await db
        .insertInto('settings')
        .values({ key: SETTINGS_KEY, value })
        .onConflict((c) => c.column('key').doUpdateSet({ value }))
        .execute();
      for (const listener of listeners) listener(settings);
      return settings;
    },

    /** Tells the listeners of a save made elsewhere (a configuration change's transaction). */
    announce(settings: MaintenanceSettings) {
      for (const listener of listeners) listener(settings);
    },

    /** Called after every save in this process (the scheduler reschedules, the quota forgets). */
    onChange(listener: (settings: MaintenanceSettings) => void) {
      listeners.add(listener);
    },
  };
}

export type MaintenanceSettingsService = ReturnType<typeof createMaintenanceSettings>;
