import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { createReverseProxyService } from './service.ts';

const proxyOf = (services: Services) =>
  createReverseProxyService(() => services.entities.single('reverse-proxy'), services.repositories);

/**
 * Set Me Up's reverse proxy data (spec 03: serverName, dockerReverseProxyMethod,
 * reverseProxyRepositories, useHttps, useHttp, httpsPort, httpPort): the Docker registry
 * hosts the console offers. The settings themselves are the schema engine's
 * (`/ui/reverseProxies/crud`); only the repositories the caller may read are named.
 */
export async function reverseProxyDataRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const proxy = proxyOf(services);
  app.get('/ui/reverseProxyData', { config: { permission: 'reader' } }, async (request) => {
    const access = await services.access.forPrincipal(request.principal);
    return proxy.dataFor((key) => access.can('read', key, '', 'folder'));
  });
}

/**
 * Artifactory's `GET /api/system/configuration/reverseProxy/nginx`: the nginx configuration
 * generated from the saved settings, as text (docs/docker.md, "Reverse proxy"); and
 * `.../reverseProxy/apache`, Apache httpd's for the same settings.
 */
export async function reverseProxySnippetRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const proxy = proxyOf(services);
  app.get(
    '/artifactory/api/system/configuration/reverseProxy/nginx',
    { config: { permission: 'admin' } },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(await proxy.nginx()),
  );
  app.get(
    '/artifactory/api/system/configuration/reverseProxy/apache',
    { config: { permission: 'admin' } },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(await proxy.apache()),
  );
}
