import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import { describeValidation } from '../../http/error-handler.ts';
import { bodyValidatorOnFirstUse } from '../../schemas/ajv.ts';
import type { Services } from '../../services.ts';
import {
  addFromFileFields,
  addFromUrlBody,
  attachBody,
  bucketParams,
  detachBody,
  splitBody,
} from './body-schemas.ts';
import { readBucketUpload } from './bucket-upload.ts';
import { BUCKET_FILE_LIMIT, LICENSE_BUCKET_MESSAGES as M } from './messages.ts';
import { createLicenseBucketsService } from './service.ts';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
const admin = { permission: 'admin' as const };
const byId = { config: admin, schema: { params: bucketParams } };
const fileFieldsValidator = bodyValidatorOnFirstUse(() => addFromFileFields);

/**
 * License buckets at the spec's mission-control paths, `/mc/api/v1/buckets` (spec 01 §7,
 * docs/license-buckets.md). Admins only. The documents live in the schema engine's store.
 */
export async function licenseBucketsRoutes(
  app: FastifyInstance,
  options: { services: Services; publicKeyPem: string | undefined; serverName: string },
) {
  const { services } = options;
  const buckets = createLicenseBucketsService({
    db: services.db,
    box: services.secrets,
    entity: services.schemas.entities.get('license-bucket')!,
    publicKeyPem: options.publicKeyPem,
    serverName: options.serverName,
    allowList: async () => (await services.securityConfig.get()).remoteAllowList,
    proxy: () => services.proxies.resolve(undefined, 'licenseBuckets'),
    projectCount: async () => (await services.projects.list()).length,
  });
  // The file form is read as a stream by the add call, not by a body parser.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  app.get('/buckets', { config: admin }, async () => buckets.list());

  app.get('/buckets/:id', byId, async (request: IdRequest) => buckets.get(request.params.id));

  app.post(
    '/buckets',
    // A JSON body adds from a URL; a multipart one carries the file (the schema is for JSON).
    {
      config: admin,
      bodyLimit: BUCKET_FILE_LIMIT + 64 * 1024,
      schema: { body: { content: { 'application/json': { schema: addFromUrlBody } } } },
    },
    async (request, reply) => {
      const actor = request.principal.name;
      let bucket;
      if (String(request.headers['content-type']).startsWith('multipart/')) {
        const upload = await readBucketUpload(request.raw, request.headers);
        const checkFileFields = fileFieldsValidator();
        if (!checkFileFields(upload.fields)) {
          const { message, field } = describeValidation(checkFileFields.errors as never);
          throw new BadRequest(message, field);
        }
        bucket = await buckets.add(
          upload.fields.name!,
          { file: upload.file, key: upload.fields.key },
          actor,
        );
      } else {
        const body = request.body as { name: string; url: string; signedUrl: string; key: string };
        bucket = await buckets.add(body.name, body, actor);
      }
      return reply.status(201).send({ info: M.added, bucket });
    },
  );

  app.delete('/buckets/:id', byId, async (request: IdRequest) => {
    await buckets.remove(request.params.id, request.principal.name);
    return { info: M.removed };
  });

  app.post(
    '/buckets/:id/split',
    { config: admin, schema: { params: bucketParams, body: splitBody } },
    async (
      request: FastifyRequest<{ Params: { id: string }; Body: { name: string; licenses: number } }>,
      reply,
    ) => {
      const { name, licenses } = request.body;
      const bucket = await buckets.split(request.params.id, name, licenses, request.principal.name);
      return reply.status(201).send({ info: M.split(name), bucket });
    },
  );

  app.get('/buckets/:id/status', byId, async (request: IdRequest) =>
    buckets.report(request.params.id),
  );

  app.post(
    '/buckets/:id/attach',
    { config: admin, schema: { params: bucketParams, body: attachBody } },
    async (
      request: FastifyRequest<{
        Params: { id: string };
        Body: { attachments: { deployment: string; licenses: number }[] };
      }>,
    ) => {
      const { attachments } = request.body;
      const { bucket, deployments } = await buckets.attach(
        request.params.id,
        attachments,
        request.principal.name,
      );
      const count = attachments.reduce((sum, entry) => sum + entry.licenses, 0);
      return { info: M.attached(count, deployments.map((d) => d.name).join(', ')), bucket };
    },
  );

  // Depot's own call (the spec has none): docs/license-buckets.md, "Detaching licenses".
  app.post(
    '/buckets/:id/detach',
    { config: admin, schema: { params: bucketParams, body: detachBody } },
    async (
      request: FastifyRequest<{ Params: { id: string }; Body: { deployments: string[] } }>,
    ) => {
      const { bucket, count, names } = await buckets.detach(
        request.params.id,
        request.body.deployments,
        request.principal.name,
      );
      return { info: M.detached(count, names.join(', ')), bucket };
    },
  );

  app.get('/buckets/:id/download', byId, async (request: IdRequest, reply) => {
    const { filename, bytes } = await buckets.download(request.params.id);
    return reply
      .type('application/json')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(bytes);
  });
}
