import type { MaintenanceForm } from '../../api/maintenance';
import { CRON_FIELDS, MAINTENANCE_MESSAGES as M } from './messages';

/** What the server said about a cron: its next run, or why it has none. */
export type CronCheck = { nextRun: string } | { error: string };
export type FieldErrors = Partial<Record<keyof MaintenanceForm, string>>;

const isPercentStep = (value: number) =>
  Number.isInteger(value) && value >= 0 && value <= 100 && value % 5 === 0;

/**
 * The form's messages, the server's rules (server/modules/maintenance/settings.ts) seen
 * from the page: crons by what /ui/crontime answered, the quota by its numbers.
 */
export function fieldErrors(form: MaintenanceForm, checks: Record<string, CronCheck>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of CRON_FIELDS) {
    const cron = form[field].trim();
    const check = checks[cron];
    if (cron === '') errors[field] = M.required;
    else if (check && 'error' in check) errors[field] = check.error;
  }
  if (form.quotaControl) {
    if (!isPercentStep(form.storageLimit)) errors.storageLimit = M.percentSteps;
    if (!isPercentStep(form.storageWarning)) errors.storageWarning = M.percentSteps;
    else if (form.storageWarning >= form.storageLimit) errors.storageWarning = M.warningBelowLimit;
  }
  return errors;
}

/** The form's own fields out of the server's answer, which carries more. */
export function formOf(view: MaintenanceForm): MaintenanceForm {
  const { garbageCollectorCron, cleanUnusedCachedCron, cleanVirtualRepoCron } = view;
  const { quotaControl, storageLimit, storageWarning } = view;
  return {
    garbageCollectorCron,
    cleanUnusedCachedCron,
    cleanVirtualRepoCron,
    quotaControl,
    storageLimit,
    storageWarning,
  };
}

export const sameForm = (a: MaintenanceForm | null, b: MaintenanceForm | null) =>
  JSON.stringify(a) === JSON.stringify(b);
