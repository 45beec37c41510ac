import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { RoutePermission } from '../../http/permissions.ts';

export const OPENAPI_PATH = '/artifactory/api/openapi.json';

/** Which part of Depot a route belongs to, by where it lives (docs/architecture.md, surfaces). */
const SURFACES: [RegExp, string][] = [
  [/^\/ui\/api\/v1\//, 'console'],
  [/^\/mc\/api\/v1\//, 'platform'],
  [/^\/event\/api\/v1\//, 'events'],
  [/^\/v2(\/|$)/, 'docker registry'],
  [/^\/artifactory\/api\/[a-z]+\/:repoKey/, 'package protocols'],
  [/^\/artifactory\/api\//, 'rest'],
  [/^\/artifactory\//, 'artifacts'],
  [/^\/ui(\/|$)/, 'console assets'],
];

const SIGNED_IN = [{ basicAuth: [] }, { bearerAuth: [] }, { apiKey: [] }, { session: [] }];

/** What a caller must show, in OpenAPI's words: `{}` allows anonymous callers. */
const SECURITY: Record<RoutePermission, object[]> = {
  public: [{}],
  reader: [{}, ...SIGNED_IN],
  user: SIGNED_IN,
  admin: SIGNED_IN,
};

const WHO: Record<RoutePermission, string> = {
  public: 'Anyone, signed in or not.',
  reader: 'Signed-in users; anonymous callers too when anonymous access is on.',
  user: 'Signed-in users.',
  admin: 'Administrators (or a token of one).',
};

function surfaceOf(url: string): string {
  return SURFACES.find(([pattern]) => pattern.test(url))?.[1] ?? 'other';
}

/** Adds what every operation should say from what its route declares: tag, caller, security. */
function describeRoute({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}) {
  const permission = route.config?.permission as RoutePermission;
  const own = (schema ?? {}) as FastifySchema & { description?: string; tags?: string[] };
  return {
    url,
    schema: {
      ...own,
      tags: own.tags ?? [surfaceOf(url)],
      description: [own.description, `Who may call it: ${WHO[permission]}`]
        .filter(Boolean)
        .join('\n\n'),
      security: SECURITY[permission],
    },
  };
}

/**
 * Collects every route's options as it registers (registered before any route) and builds an
 * OpenAPI 3.1 document from their schemas on first request (docs/openapi.md).
 */
export const openApiPlugin = fp<{ version: string }>(
  async (app: FastifyInstance, { version }) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Depot',
          version,
          description:
            "Depot's HTTP API: the REST API at Artifactory's paths, the package protocols, the console's calls.",
        },
        components: {
          securitySchemes: {
            basicAuth: { type: 'http', scheme: 'basic' },
            bearerAuth: { type: 'http', scheme: 'bearer' },
            apiKey: { type: 'apiKey', in: 'header', name: 'X-JFrog-Art-Api' },
            session: { type: 'apiKey', in: 'cookie', name: 'depot_session' },
          },
        },
      },
      // Every route is described, HEAD ones too: the document is the route list's twin.
      exposeHeadRoutes: true,
      transform: describeRoute as never,
    });
  },
  { name: 'depot-openapi' },
);

/** The document, for any signed-in user: it describes the API, and holds nothing secret. */
export async function openApiRoutes(app: FastifyInstance) {
  app.get(
    OPENAPI_PATH,
    {
      config: { permission: 'user' },
      schema: { summary: 'This OpenAPI document', tags: ['rest'] },
    },
    async (_request, reply) => reply.type('application/json').send(app.swagger()),
  );
}
