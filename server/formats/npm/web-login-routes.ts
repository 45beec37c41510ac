import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { WEB_LOGIN_MESSAGES } from './web-login.ts';

const loginParams = {
  type: 'object',
  required: ['loginId'],
  properties: {
    loginId: {
      type: 'string',
      minLength: 16,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      // The console's page shows this answer: an id no login could have is an unknown one.
      errorMessage: WEB_LOGIN_MESSAGES.unknown,
    },
  },
};
type LoginParams = { Params: { loginId: string } };

/**
 * The console's side of npm's web login (docs/npm.md), under `/ui/api/v1`: the page at
 * `/ui/npm-login/{loginId}` shows what asks, and the signed-in user approves (npm gets a
 * token of theirs, as `npm login` with a password would) or denies.
 */
export async function npmWebLoginRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const logins = services.npmWebLogins;
  const signedIn = { permission: 'user' as const };

  app.get<LoginParams>(
    '/npm/login/:loginId',
    { config: signedIn, schema: { params: loginParams } },
    async (request) => logins.describe(request.params.loginId),
  );

  app.post<LoginParams>(
    '/npm/login/:loginId/approve',
    { config: signedIn, schema: { params: loginParams } },
    async (request) => {
      const { principal } = request;
      const repoKey = await logins.approve(request.params.loginId, principal.name, async () => {
        // The caller's own identity, never wider: a group-scoped token's groups stay its own.
        const token = await services.tokens.create(principal, { description: 'npm login (web)' });
        return token.access_token;
      });
      request.log.info({ user: principal.name, repoKey }, 'npm: web login approved, token issued');
      return { info: WEB_LOGIN_MESSAGES.approved(repoKey, principal.name) };
    },
  );

  app.post<LoginParams>(
    '/npm/login/:loginId/deny',
    { config: signedIn, schema: { params: loginParams } },
    async (request) => {
      logins.deny(request.params.loginId);
      request.log.info({ user: request.principal.name }, 'npm: web login denied');
      return { info: WEB_LOGIN_MESSAGES.deniedHere };
    },
  );
}
