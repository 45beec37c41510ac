import type { JsonSchema } from '../../schemas/registry.ts';

const cron = { type: 'string', maxLength: 200 };
const percent = { type: 'integer', minimum: -1, maximum: 100 };

/**
 * The types of the maintenance section; the rules across its fields are the Maintenance
 * form's own (maintenance/settings.ts), which the section goes through after this.
 */
export const MAINTENANCE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    garbageCollectorCron: cron,
    cleanUnusedCachedCron: cron,
    cleanVirtualRepoCron: cron,
    quotaControl: { type: 'boolean' },
    storageLimit: percent,
    storageWarning: percent,
  },
};
