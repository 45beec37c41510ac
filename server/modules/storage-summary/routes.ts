import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

const count = { type: 'integer', minimum: 0 } as const;
const number = { type: 'number' } as const;
const text = { type: 'string' } as const;

/** The answer's shape; it also keeps anything not listed here out of the response. */
const storageSummarySchema = {
  type: 'object',
  properties: {
    binariesSummary: {
      type: 'object',
      properties: {
        binariesCount: count,
        binariesSize: count,
        artifactsSize: count,
        optimization: number,
        itemsCount: count,
        artifactsCount: count,
      },
    },
    fileStoreSummary: {
      type: 'object',
      properties: {
        storageType: text,
        storageDirectory: text,
        totalSpace: count,
        usedSpace: count,
        freeSpace: count,
      },
    },
    repositoriesSummaryList: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          repoKey: text,
          repoType: text,
          packageType: text,
          foldersCount: count,
          filesCount: count,
          itemsCount: count,
          usedSpace: count,
          percentage: number,
        },
      },
    },
  },
} as const;

/** The console's storage summary (Administration > Monitoring > Storage), under /ui/api/v1. */
export async function storageSummaryRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  app.get(
    '/ui/storagesummary',
    {
      // Admins only: it names the filestore's directory on the server.
      config: { permission: 'admin' },
      schema: { response: { 200: storageSummarySchema } },
    },
    async () => services.storageSummary.summarize(),
  );
}
