import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { accessScopeOf, legacyScopeOf } from './legacy-scope.ts';
import { TOKEN_MESSAGES as M } from './messages.ts';

/** The legacy API's default lifetime (Artifactory's): an hour, not the Access API's year. */
const LEGACY_EXPIRES_IN = 3600;

interface LegacyCreateBody {
  username?: string;
  scope?: string;
  expires_in?: number | string;
  refreshable?: boolean | string;
  audience?: string;
  grant_type?: string;
  refresh_token?: string;
  access_token?: string;
}

const legacyCreateBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    scope: { type: 'string', minLength: 1, maxLength: 4096 },
    expires_in: { type: ['integer', 'string'], pattern: '^[0-9]{1,12}$' },
    refreshable: { type: ['boolean', 'string'] },
    audience: { type: 'string', maxLength: 1024 },
    grant_type: { type: 'string', maxLength: 64 },
    refresh_token: { type: 'string', maxLength: 8192 },
    access_token: { type: 'string', maxLength: 8192 },
  },
};

const revokeBody = {
  type: 'object',
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 8192 },
    token_id: { type: 'string', minLength: 1, maxLength: 64 },
  },
};

/** The id of a token given whole (`token=`) or by id (`token_id=`). */
function tokenIdOf(body: { token?: string; token_id?: string }): string {
  if (body.token_id) return body.token_id;
  if (!body.token) throw new BadRequest(M.revokeNeedsToken);
  try {
    const id = decodeJwt(body.token).jti;
    if (id) return id;
  } catch {
    // not a JWT: said below
  }
  throw new BadRequest(M.revokeNeedsToken);
}

/**
 * Artifactory's legacy token API (`/artifactory/api/security/token`, docs/access-tokens.md),
 * which pipelines still call: the same access tokens as `/access/api/v1/tokens`, under the
 * same rules (who may mint what, no token outliving its parent), in the legacy shapes.
 */
export function registerLegacyTokenRoutes(app: FastifyInstance, { tokens }: Services) {
  const user = { permission: 'user' as const };
  app.post<{ Body: LegacyCreateBody }>(
    '/artifactory/api/security/token',
    { config: user, schema: { body: legacyCreateBody } },
    async (request) => {
      const body = request.body ?? {};
      if (body.grant_type === 'refresh_token') throw new BadRequest(M.notRefreshable);
      const expiresIn =
        body.expires_in === undefined || body.expires_in === ''
          ? LEGACY_EXPIRES_IN
          : Number(body.expires_in);
      const created = await tokens.create(request.principal, {
        username: body.username,
        scope: accessScopeOf(body.scope),
        expiresIn,
        description: 'created with /api/security/token',
        // The legacy default is asked for as if the caller had: a token a shorter while left
        // gets one cut to its own end rather than a refusal.
        defaultLifetime: body.expires_in === undefined || body.expires_in === '',
      });
      request.log.info(
        { tokenId: created.token_id, scope: created.scope, by: request.principal.name },
        'access token created (legacy API)',
      );
      return {
        access_token: created.access_token,
        ...(created.expires_in !== undefined ? { expires_in: created.expires_in } : {}),
        scope: legacyScopeOf(created.scope),
        token_type: 'Bearer',
      };
    },
  );

  app.get('/artifactory/api/security/token', { config: user }, async (request) => ({
    tokens: (await tokens.list(request.principal)).map((token) => ({
      token_id: token.token_id,
      issuer: token.issuer,
      subject: token.subject,
      ...(token.expiry !== undefined ? { expiry: token.expiry } : {}),
      refreshable: false,
      issued_at: token.issued_at,
    })),
  }));

  app.post<{ Body: { token?: string; token_id?: string } }>(
    '/artifactory/api/security/token/revoke',
    { config: user, schema: { body: revokeBody } },
    async (request, reply) => {
      const id = tokenIdOf(request.body ?? {});
      await tokens.revoke(request.principal, id);
      request.log.info({ tokenId: id, by: request.principal.name }, 'access token revoked');
      return reply.type('text/plain').send(M.revoked);
    },
  );
}
