import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

/** Liveness and version, at Artifactory's paths so monitoring scripts carry over. */
export async function systemRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get(
    '/artifactory/api/system/ping',
    { config: { permission: 'public' } },
    async (_request, reply) => {
      // Answers only when the database does: a load balancer should not send traffic otherwise.
      await services.db.selectNoFrom((eb) => eb.val(1).as('ok')).execute();
      return reply.type('text/plain').send('OK');
    },
  );

  const version = () => ({
    version: services.version.version,
    revision: services.version.revision,
    addons: [],
    license: 'ENTERPRISE_PLUS',
  });
  app.get('/artifactory/api/system/version', { config: { permission: 'reader' } }, async () =>
    version(),
  );
  // JFrog's clients report their usage here after their work; Depot keeps no usage data, and
  // answers as Artifactory does so that the client's call succeeds (docs/decisions.md).
  app.post(
    '/artifactory/api/system/usage',
    { config: { permission: 'reader' }, bodyLimit: 64 * 1024 },
    async (_request, reply) => reply.status(200).send(),
  );
  app.get('/ui/api/v1/system/version', { config: { permission: 'reader' } }, async () => version());
}
