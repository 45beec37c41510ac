import type { FastifyInstance } from 'fastify';
import { BadRequest, Conflict } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { createBody } from '../entities/body-schemas.ts';
import { requestStop } from './execution-queries.ts';
import { cancelPending } from './queue-queries.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';
import type { RetentionPolicy } from './policy-aql.ts';
import type { Retention } from './retention-jobs.ts';
import type { RestoreRequest } from './service.ts';

const admin = { permission: 'admin' as const };
const BASE = '/ui/retention';
const POLICIES = `${BASE}/archive/policies`;
const keyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', maxLength: 64 } },
};
const range = {
  type: 'object',
  properties: { from: { type: 'string', maxLength: 20 }, to: { type: 'string', maxLength: 20 } },
};
const text = { type: 'string', maxLength: 4096 };
const restoreBody = {
  type: 'object',
  required: ['itemsToRestore'],
  additionalProperties: false,
  properties: {
    restoreToOriginal: { type: 'boolean' },
    fallbackDestinationPath: text,
    centralDestinationPath: text,
    itemsToRestore: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['repo', 'path', 'name'],
        additionalProperties: false,
        properties: { repo: text, path: text, name: text },
      },
    },
  },
};

/** `from`/`to` as epoch milliseconds; the default range is the spec's: a month back to now. */
function dateRange(query: { from?: string; to?: string }) {
  const to = query.to === undefined ? Date.now() : Number(query.to);
  const from = query.from === undefined ? to - 31 * 86_400_000 : Number(query.from);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to)
    throw new BadRequest(M.invalidRange);
  return { from: new Date(from), to: new Date(to) };
}

/** The console's retention calls (spec 02, "Retention"; docs/retention.md). */
export async function retentionRoutes(
  app: FastifyInstance,
  { services, retention }: { services: Services; retention: Retention },
) {
  const { retention: service } = retention;
  const policies = () => services.entities.collection('retention-policy');
  const policyBody = createBody(services.schemas.entities.get('retention-policy')!);
  // The archive search takes its AQL as text/plain, as the item search's AQL call does.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post<{ Body: RetentionPolicy }>(
    `${POLICIES}/preview`,
    { config: admin, schema: { body: policyBody } },
    async (request) => service.preview(request.body),
  );

  app.post<{ Body: RetentionPolicy }>(
    `${POLICIES}/convertToAql`,
    { config: admin, schema: { body: policyBody } },
    async (request) => {
      const converted = service.convertToAql(request.body);
      return { ...converted, info: converted.aqlQuery };
    },
  );

  app.post<{ Params: { key: string } }>(
    `${POLICIES}/:key/trigger`,
    { config: admin, schema: { params: keyParams } },
    async (request) => {
      const { key } = request.params;
      await service.policy(key); // 404 for a policy that does not exist
      const outcome = await retention.trigger(key, request.principal.name);
      return { info: outcome === 'queued' ? M.queued(key) : M.started(key), state: outcome };
    },
  );

  app.post<{ Params: { key: string } }>(
    `${POLICIES}/:key/stop`,
    { config: admin, schema: { params: keyParams } },
    async (request) => {
      const { key } = request.params;
      await service.policy(key);
      // Stop ends the run in flight and cancels the one queued behind it, whichever exist.
      const cancelled = await cancelPending(services.db, [key], M.cancelled);
      if (await requestStop(services.db, key)) return { info: M.stopping(key) };
      if (cancelled === 0) throw new Conflict(M.notRunning(key));
      return { info: M.pendingCancelled(key) };
    },
  );

  // One policy's delete (the spec's calls name it); the engine's `delete` takes a list.
  // Both refuse a policy whose run is in flight (hooks.ts) and cancel a pending one.
  app.delete<{ Params: { key: string } }>(
    `${POLICIES}/:key`,
    { config: admin, schema: { params: keyParams } },
    async (request) => {
      const { key } = request.params;
      await policies().deleteMany([key], request.principal.name);
      return { info: M.deleted(key) };
    },
  );

  app.post<{ Params: { key: string } }>(
    `${POLICIES}/:key/undo`,
    { config: admin, schema: { params: keyParams } },
    async (request) => service.undo(request.params.key, request.principal.name),
  );

  app.get(`${BASE}/archive/storageinfo`, { config: admin }, async () => service.storageInfo());

  for (const kind of ['archive', 'restore'] as const) {
    app.get<{ Querystring: { from?: string; to?: string } }>(
      `${BASE}/${kind}/executions`,
      { config: admin, schema: { querystring: range } },
      async (request) => {
        const { from, to } = dateRange(request.query);
        return service.executions(kind, from, to);
      },
    );
  }

  app.post<{ Body: RestoreRequest }>(
    `${BASE}/restore`,
    { config: admin, schema: { body: restoreBody } },
    async (request) => service.restore(request.body, request.principal.name),
  );

  app.post<{ Body: string }>(`${BASE}/search`, { config: admin }, async (request) => {
    const aql = typeof request.body === 'string' ? request.body : '';
    if (aql.trim() === '') throw new BadRequest(M.aqlEmpty);
    return { data: await service.search(aql) };
  });
}
