import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';
import { requirePasswordSignIn } from '../auth/password-sign-in.ts';
import { TOKEN_MESSAGES as M } from './messages.ts';
import { registerLegacyTokenRoutes } from './legacy-routes.ts';

const user = { permission: 'user' as const };
const admin = { permission: 'admin' as const };

interface CreateBody {
  username?: string;
  scope?: string;
  expires_in?: number | string;
  description?: string;
  refreshable?: boolean | string;
}

const createBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    scope: { type: 'string', minLength: 1, maxLength: 4096 },
    expires_in: { type: ['integer', 'string'], pattern: '^[0-9]{1,12}$' },
    description: { type: 'string', maxLength: 1024 },
    // Accepted as clients send it; Depot's tokens are not refreshed (docs/access-tokens.md).
    refreshable: { type: ['boolean', 'string'] },
    audience: { type: 'string', maxLength: 1024 },
    grant_type: { type: 'string', maxLength: 64 },
  },
};

function expiresIn(value: number | string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!Number.isSafeInteger(seconds)) throw new BadRequest('expires_in must be whole seconds');
  return seconds;
}

/** The signed-in user's id; tokens of group scope and the like have none to hold a key. */
function userIdOf(principal: Principal): number {
  if (principal.userId === undefined) throw new NotFound(M.noApiKey);
  return principal.userId;
}

/**
 * Access tokens (`/access/api/v1/tokens`, JFrog Access's shape) and API keys (the console's
 * `/ui/userApiKey` calls and Artifactory's `/artifactory/api/security/apiKey`), see
 * docs/access-tokens.md. Signed-in users manage their own; admins anyone's.
 */
export async function accessTokenRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { tokens } = services;
  // curl -d 'username=...&scope=...' posts a form, as JFrog's documentation shows.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 65536 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post<{ Body: CreateBody }>(
    '/access/api/v1/tokens',
    { config: user, schema: { body: createBody } },
    async (request) => {
      const body = request.body ?? {};
      const created = await tokens.create(request.principal, {
        username: body.username,
        scope: body.scope,
        expiresIn: expiresIn(body.expires_in),
        description: body.description,
      });
      request.log.info(
        { tokenId: created.token_id, scope: created.scope, by: request.principal.name },
        'access token created',
      );
      return created;
    },
  );

  app.get('/access/api/v1/tokens', { config: user }, async (request) => ({
    tokens: await tokens.list(request.principal),
  }));

  app.delete<{ Params: { id: string } }>(
    '/access/api/v1/tokens/:id',
    {
      config: user,
      schema: {
        params: {
          type: 'object',
          properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request, reply) => {
      await tokens.revoke(request.principal, request.params.id);
      request.log.info(
        { tokenId: request.params.id, by: request.principal.name },
        'access token revoked',
      );
      return reply.type('text/plain').send(M.revoked);
    },
  );

  registerApiKeyRoutes(app, services);
  registerLegacyTokenRoutes(app, services);
}

/**
 * API keys: the caller's own, and an admin's removal of anyone's. Revoking needs no
 * password: it takes a credential away and grants nothing.
 */
function registerApiKeyRoutes(app: FastifyInstance, services: Services) {
  const { apiKeys, users } = services;
  const own = (request: FastifyRequest) => userIdOf(request.principal);
  /** The caller's own key, to show or replace: a permanent credential, so only after a password. */
  const ownWithPassword = (request: FastifyRequest) => {
    requirePasswordSignIn(request.principal);
    return own(request);
  };

  for (const base of ['/ui/api/v1/ui/userApiKey', '/artifactory/api/security/apiKey']) {
    app.get(base, { config: user }, async (request) => {
      const key = await apiKeys.get(ownWithPassword(request));
      return key ? { apiKey: key } : {};
    });
    app.post(base, { config: user }, async (request, reply) => {
      const key = await apiKeys.create(ownWithPassword(request));
      request.log.info({ by: request.principal.name }, 'API key created');
      return reply.status(201).send({ apiKey: key });
    });
    app.put(base, { config: user }, async (request) => {
      const key = await apiKeys.regenerate(ownWithPassword(request));
      request.log.info({ by: request.principal.name }, 'API key regenerated');
      return { apiKey: key };
    });
    app.delete(base, { config: user }, async (request) => {
      await apiKeys.revoke(own(request));
      request.log.info({ by: request.principal.name }, 'API key revoked');
      return { info: M.apiKeyRevoked };
    });
  }

  const userParams = {
    type: 'object',
    properties: { user: { type: 'string', minLength: 1, maxLength: 64 } },
  };
  const idOf = async (name: string) => {
    const found = await users.findId(name);
    if (found === undefined) throw new NotFound(M.unknownUser(name));
    return found;
  };
  app.head<{ Params: { user: string } }>(
    '/ui/api/v1/ui/userApiKey/:user',
    { config: admin, schema: { params: userParams } },
    async (request, reply) => {
      const exists = await apiKeys.exists(await idOf(request.params.user));
      return reply.status(exists ? 200 : 404).send();
    },
  );
  for (const url of ['/ui/api/v1/ui/userApiKey/:user', '/ui/api/v1/ui/deleteApiKeyForUser/:user']) {
    app.delete<{ Params: { user: string } }>(
      url,
      { config: admin, schema: { params: userParams } },
      async (request) => {
        await apiKeys.revoke(await idOf(request.params.user));
        request.log.info(
          { user: request.params.user, by: request.principal.name },
          'API key revoked',
        );
        return { info: M.apiKeyRevoked };
      },
    );
  }
}
