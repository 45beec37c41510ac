import type { JsonSchema } from '../../schemas/registry.ts';
import { MAINTENANCE_MESSAGES } from './messages.ts';

const cron = { type: 'string', maxLength: 256 };
const percent = {
  type: 'integer',
  minimum: -1,
  maximum: 100,
  errorMessage: MAINTENANCE_MESSAGES.percentSteps,
};

/**
 * The maintenance settings' fields and types, shared by the Maintenance form's route (every
 * field required) and configuration as code's maintenance section (any subset). The rules
 * across fields are the settings' own (settings.ts), which both go through after this.
 */
export function maintenanceSettingsSchema({ allRequired }: { allRequired: boolean }): JsonSchema {
  const properties = {
    garbageCollectorCron: cron,
    cleanUnusedCachedCron: cron,
    cleanVirtualRepoCron: cron,
    quotaControl: { type: 'boolean' },
    storageLimit: percent,
    storageWarning: percent,
  };
  return {
    type: 'object',
    additionalProperties: false,
    ...(allRequired ? { required: Object.keys(properties) } : {}),
    properties,
  };
}
