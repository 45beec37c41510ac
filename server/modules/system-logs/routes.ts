import type { FastifyInstance } from 'fastify';
import { NotFound } from '../../errors.ts';
import { listLogFiles, readLogChunk } from './log-reader.ts';

/** The one service whose logs Depot has; the spec's other services are companions it lacks. */
export const LOG_SERVICES = ['artifactory'];

export interface SystemLogsOptions {
  logDir: string;
  nodeId: string;
  refreshRateMillis: number;
}

const serviceParams = {
  type: 'object',
  required: ['service'],
  properties: { service: { type: 'string' } },
} as const;
const nodeQuery = { nodeId: { type: 'string', maxLength: 64 } } as const;

/**
 * The live log viewer's calls (spec 03 "Logs"): which logs a node has, and a log's text from
 * an offset. Admins only: logs name users and paths.
 */
export async function systemLogsRoutes(app: FastifyInstance, options: SystemLogsOptions) {
  const admin = { permission: 'admin' } as const;

  function checkTarget(service: string, nodeId: string | undefined) {
    if (!LOG_SERVICES.includes(service)) throw new NotFound(`Service '${service}' not found`);
    // Each node serves its own logs; the viewer sends the node its request reaches.
    if (nodeId && nodeId !== options.nodeId) throw new NotFound(`Node '${nodeId}' not found`);
  }

  app.get<{ Params: { service: string }; Querystring: { nodeId?: string } }>(
    '/system/logs/config/:service',
    {
      config: admin,
      schema: {
        params: serviceParams,
        querystring: { type: 'object', properties: nodeQuery },
      },
    },
    async (request) => {
      checkTarget(request.params.service, request.query.nodeId);
      return { logs: listLogFiles(options.logDir), refresh_rate_millis: options.refreshRateMillis };
    },
  );

  app.get<{
    Params: { service: string };
    Querystring: { nodeId?: string; id: string; file_size?: number };
  }>(
    '/system/logs/data/:service',
    {
      config: admin,
      schema: {
        params: serviceParams,
        querystring: {
          type: 'object',
          required: ['id'],
          properties: {
            ...nodeQuery,
            id: { type: 'string', maxLength: 200 },
            file_size: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    async (request) => {
      const { nodeId, id, file_size: offset = 0 } = request.query;
      checkTarget(request.params.service, nodeId);
      const chunk = await readLogChunk(options.logDir, id, offset);
      return {
        log_content: chunk.content,
        file_size: chunk.end,
        last_update_modified: chunk.modifiedMs,
        last_update_label: new Date().toISOString(),
      };
    },
  );
}
