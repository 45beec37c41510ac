import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SupportBundles, BundleRequest } from './service.ts';
import { BUNDLE_STATUS } from './queries.ts';

const admin = { permission: 'admin' as const };

/** Artifactory's body: `{name, description, parameters: {logs: {start_date, end_date}}}`. */
interface GenerateBody {
  name?: string;
  description?: string;
  parameters?: { logs?: { start_date?: string; end_date?: string } };
}

const generateSchema = {
  body: {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 200 },
      description: { type: 'string', maxLength: 1000 },
      service: { type: 'string' },
      parameters: {
        type: 'object',
        properties: {
          logs: {
            type: 'object',
            properties: {
              include: { type: 'boolean' },
              start_date: { type: 'string' },
              end_date: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

const requestOf = (body: GenerateBody | undefined): BundleRequest => ({
  name: body?.name,
  description: body?.description,
  startDate: body?.parameters?.logs?.start_date,
  endDate: body?.parameters?.logs?.end_date,
});

type Row = Awaited<ReturnType<SupportBundles['list']>>[number];

/** A bundle as the console's list shows it (spec 02: id, name, description, create_date, status). */
const viewOf = (row: Row) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  create_date: new Date(row.created_at).toISOString(),
  status: row.status,
  statusClass:
    row.status === BUNDLE_STATUS.success
      ? 'success'
      : row.status === BUNDLE_STATUS.failed
        ? 'failed'
        : 'in-progress',
  progress: row.progress,
  size: row.size === null ? undefined : Number(row.size),
  error: row.error ?? undefined,
  createdBy: row.created_by,
  nodeId: row.node_id,
});

/**
 * Support bundles, admins only: the console's `ui/userSupport/*` calls (under
 * /ui/api/v1) and Artifactory's `POST /artifactory/api/system/support/bundle`.
 */
export async function supportBundleRoutes(
  app: FastifyInstance,
  { bundles }: { bundles: SupportBundles },
) {
  const generate = async (
    request: FastifyRequest<{ Body: GenerateBody }>,
    reply: { status: (code: number) => unknown },
  ) => {
    const row = await bundles.generate(requestOf(request.body), request.principal.name);
    reply.status(202);
    return viewOf(row);
  };
  app.get('/ui/api/v1/ui/userSupport/listBundles', { config: admin }, async () =>
    (await bundles.list()).map(viewOf),
  );
  app.post(
    '/ui/api/v1/ui/userSupport/generateBundle',
    { config: admin, schema: generateSchema },
    generate,
  );
  app.post(
    '/artifactory/api/system/support/bundle',
    { config: admin, schema: generateSchema },
    generate,
  );
  app.get<{ Params: { id: string } }>(
    '/ui/api/v1/ui/userSupport/downloadBundle/:id',
    { config: admin },
    async (request, reply) => {
      const { name, stream } = await bundles.open(request.params.id);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(stream);
    },
  );
  app.delete<{ Params: { id: string } }>(
    '/ui/api/v1/ui/userSupport/deleteBundle/:id',
    { config: admin },
    async (request) => {
      await bundles.delete(request.params.id, request.principal.name);
      return { info: 'Support bundle deleted' };
    },
  );
}
