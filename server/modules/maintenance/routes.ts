import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

const KIB = 1024;
const humanBytes = (bytes: number) => {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= KIB && unit < units.length - 1) {
    value /= KIB;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
};

/** Maintenance "Run Now" calls (spec 03 §7 Maintenance). */
export async function maintenanceRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  app.post(
    '/ui/maintenance/garbageCollection',
    { config: { permission: 'admin' } },
    async (request) => {
      const report = await services.garbageCollector.collect();
      request.log.info({ ...report, by: request.principal.name }, 'garbage collection');
      return {
        info: `Garbage collection freed ${report.binaries} binaries (${humanBytes(report.bytes)})`,
        ...report,
      };
    },
  );
}
