import { statfs } from 'node:fs/promises';
import { DepotError } from '../../errors.ts';
import { MAINTENANCE_MESSAGES } from './messages.ts';
import type { MaintenanceSettings, MaintenanceSettingsService } from './settings.ts';

/** Deployments refused for the storage limit (spec 03 §8). */
export class StorageLimitReached extends DepotError {
  constructor(message: string) {
    super(413, message);
  }
}

export interface DiskUsage {
  /** Used share of the filestore's file system, as `df` counts it (reserved blocks aside). */
  usedPercent: number;
  totalBytes: number;
  freeBytes: number;
}

export interface QuotaStatus extends DiskUsage {
  /** Quota control is on and usage is at or over the warning percentage. */
  warning: boolean;
  /** Quota control is on and usage is at or over the limit: deployments are refused. */
  limitReached: boolean;
}

/** statfs and the settings are read at most this often: a deploy must stay cheap. */
const CACHE_MS = 5000;
/** A warning in the log at most this often while usage stays over the warning level. */
const WARNING_LOG_INTERVAL_MS = 10 * 60 * 1000;

const percentText = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

async function measure(root: string): Promise<DiskUsage> {
  const fs = await statfs(root);
  const used = (fs.blocks - fs.bfree) * fs.bsize;
  const available = fs.bavail * fs.bsize;
  const usable = used + available;
  return {
    usedPercent: usable === 0 ? 0 : (used / usable) * 100,
    totalBytes: usable,
    freeBytes: available,
  };
}

/**
 * The storage quota (spec 03 §9): with quota control on, a deploy that would take the
 * filestore's disk over the limit percentage is refused with 413 before its body is read;
 * over the warning percentage a warning is logged (rate-limited) and shown in the console.
 */
export function createStorageQuota(filestoreRoot: string, settings: MaintenanceSettingsService) {
  let cached: { at: number; usage: DiskUsage; settings: MaintenanceSettings } | undefined;
  let lastWarnedAt = 0;
  settings.onChange(() => (cached = undefined));

  async function current() {
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const [usage, saved] = await Promise.all([measure(filestoreRoot), settings.get()]);
      cached = { at: Date.now(), usage, settings: saved };
    }
    return cached;
  }

  return {
    async status(): Promise<QuotaStatus> {
      const { usage, settings: saved } = await current();
      const on = saved.quotaControl;
      return {
        ...usage,
        warning: on && usage.usedPercent >= saved.storageWarning,
        limitReached: on && usage.usedPercent >= saved.storageLimit,
      };
    },

    /**
     * Refuses a deploy of `incomingBytes` (0 when the size is unknown) that would take usage
     * over the limit; logs a warning when usage is over the warning level.
     */
    async assertRoomFor(incomingBytes: number, warn: (message: string) => void): Promise<void> {
      const { usage, settings: saved } = await current();
      if (!saved.quotaControl) return;
      const after =
        usage.totalBytes === 0
          ? usage.usedPercent
          : usage.usedPercent + (Math.max(0, incomingBytes) / usage.totalBytes) * 100;
      if (after > saved.storageLimit)
        throw new StorageLimitReached(
          MAINTENANCE_MESSAGES.storageLimitReached(percentText(after), saved.storageLimit),
        );
      if (after >= saved.storageWarning && Date.now() - lastWarnedAt > WARNING_LOG_INTERVAL_MS) {
        lastWarnedAt = Date.now();
        warn(
          `Datastore disk usage ${percentText(after)}% is over the warning level of ${saved.storageWarning}%`,
        );
      }
    },
  };
}

export type StorageQuota = ReturnType<typeof createStorageQuota>;
