import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import { describeValidation } from '../../http/error-handler.ts';
import { bodyValidatorOnFirstUse } from '../../schemas/ajv.ts';
import type { Services } from '../../services.ts';
import { createBody } from '../entities/body-schemas.ts';
import type { EntityDocument } from '../entities/documents.ts';
import { domainList } from '../events/domains.ts';
import { deliveryParams, eventApiSubscription, keyParams } from './body-schemas.ts';
import { WEBHOOK_ENTITY } from './service.ts';
import {
  fromEventApi,
  toEventApi,
  type EventApiSubscription,
  type Subscription,
} from './subscription.ts';

const admin = { permission: 'admin' as const };
type KeyRequest = FastifyRequest<{ Params: { key: string } }>;
type EventApiRequest = FastifyRequest<{ Params: { key: string }; Body: EventApiSubscription }>;

/** Checks a stored-shape document against the webhook entity schema, with its messages. */
function documentChecker(services: Services) {
  const entity = services.schemas.entities.get(WEBHOOK_ENTITY)!;
  const validator = bodyValidatorOnFirstUse(() => createBody(entity));
  return (document: EntityDocument): Subscription => {
    const check = validator();
    if (!check(document)) {
      const { message, field } = describeValidation(check.errors as never);
      throw new BadRequest(message, field);
    }
    return document as unknown as Subscription;
  };
}

/**
 * The Event API (`/event/api/v1`, spec 03 §7 "Webhooks"; docs/webhooks.md): domains and
 * subscriptions in JFrog's shape, so scripts written for it work. Subscriptions are the
 * schema engine's documents; these routes only change their shape. Admins only.
 */
export async function eventApiRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const store = () => services.entities.collection(WEBHOOK_ENTITY);
  const checked = documentChecker(services);
  const read = async (key: string) =>
    toEventApi((await store().get(key)).document as unknown as Subscription);

  app.get('/domains', { config: admin }, async () => domainList());

  app.get('/subscriptions', { config: admin }, async () => {
    const { items } = await store().list({ offset: 0, descending: false, equals: {} });
    return items.map((item) => toEventApi(item as unknown as Subscription));
  });

  app.get(
    '/subscriptions/:key',
    { config: admin, schema: { params: keyParams } },
    (request: KeyRequest) => read(request.params.key),
  );

  app.post(
    '/subscriptions',
    { config: admin, schema: { body: eventApiSubscription } },
    async (request: EventApiRequest, reply) => {
      const document = checked(fromEventApi(request.body, request.body.key ?? ''));
      await store().create(document as unknown as EntityDocument, request.principal.name);
      return reply.status(201).send(await read(document.key));
    },
  );

  app.put(
    '/subscriptions/:key',
    { config: admin, schema: { params: keyParams, body: eventApiSubscription } },
    async (request: EventApiRequest) => {
      const { key } = request.params;
      if (request.body.key !== undefined && request.body.key !== key)
        throw new BadRequest("A webhook's name cannot be changed", 'key');
      const document = checked(fromEventApi(request.body, key));
      await store().update(key, document as unknown as EntityDocument, request.principal.name);
      return read(key);
    },
  );

  app.delete(
    '/subscriptions/:key',
    { config: admin, schema: { params: keyParams } },
    async (request: KeyRequest, reply) => {
      await store().deleteMany([request.params.key], request.principal.name);
      return reply.status(204).send();
    },
  );

  app.post(
    '/subscriptions/test',
    { config: admin, schema: { body: eventApiSubscription } },
    async (request: EventApiRequest) => {
      const document = checked(fromEventApi(request.body, request.body.key ?? 'test'));
      return { info: await services.webhooks.test(document, request.principal.name) };
    },
  );
}

/** The console's webhook calls beside the engine's CRUD: test, history, redeliver, resume. */
export async function webhookConsoleRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const checked = documentChecker(services);

  app.post('/ui/webhooks/test', { config: admin }, async (request) => {
    const document = checked(structuredClone(request.body) as EntityDocument);
    return { info: await services.webhooks.test(document, request.principal.name) };
  });

  app.get(
    '/ui/webhooks/:key/deliveries',
    { config: admin, schema: { params: keyParams } },
    (request: KeyRequest) => services.webhooks.history(request.params.key),
  );

  app.post(
    '/ui/webhooks/:key/deliveries/:deliveryId/redeliver',
    { config: admin, schema: { params: deliveryParams } },
    async (request: FastifyRequest<{ Params: { key: string; deliveryId: string } }>) => {
      const { key, deliveryId } = request.params;
      return { info: await services.webhooks.redeliver(key, deliveryId) };
    },
  );

  app.post(
    '/ui/webhooks/:key/resume',
    { config: admin, schema: { params: keyParams } },
    async (request: KeyRequest) => {
      await services.webhooks.resume(request.params.key);
      return { info: `Webhook '${request.params.key}' resumed` };
    },
  );
}
