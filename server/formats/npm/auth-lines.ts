import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { NPM_MESSAGES as M } from './messages.ts';
import { ownAddress } from '../../modules/general-config/own-address.ts';

/** npm's scope names: lower case, URL-safe, without the `@` (Artifactory's path omits it). */
const SCOPE = /^@?([a-z0-9][a-z0-9._~-]{0,213})$/;

/**
 * The credential the caller presented, as npm's `_auth` carries it (base64 of `name:secret`).
 * It is echoed, never minted: the answer holds nothing the caller did not send. A console
 * session has no secret npm could use, so it gets none.
 */
function presentedAuth(request: FastifyRequest): string {
  const name = request.principal.name;
  const authorization = request.headers.authorization ?? '';
  if (authorization.startsWith('Basic ')) return authorization.slice(6).trim();
  const encode = (secret: string) => Buffer.from(`${name}:${secret}`).toString('base64');
  if (authorization.startsWith('Bearer ')) return encode(authorization.slice(7).trim());
  const apiKey = request.headers['x-jfrog-art-api'];
  if (typeof apiKey === 'string') return encode(apiKey.trim());
  throw new BadRequest(M.authNeedsCredential);
}

async function emailOf(services: Services, name: string): Promise<string> {
  try {
    return (await services.users.get(name)).email;
  } catch {
    // A group-scoped token's subject may be no user: npm needs no email to authenticate.
    return '';
  }
}

/**
 * Artifactory's `.npmrc` recipes (docs/npm.md, "CI"): `GET /artifactory/api/npm/auth` answers
 * the `_auth`, `email` and `always-auth` lines for the caller; `/{repoKey}/auth/{scope}` the
 * scoped registry line and the same under that registry's URL, which is what npm 9 and later
 * read. Signed-in callers only: an anonymous caller has no credential to be answered.
 */
export function registerAuthLineRoutes(app: FastifyInstance, services: Services) {
  const user = { config: { permission: 'user' as const } };
  app.get('/auth', user, async (request, reply) => {
    const lines = [
      `_auth = ${presentedAuth(request)}`,
      'always-auth = true',
      `email = ${await emailOf(services, request.principal.name)}`,
    ];
    return reply.type('text/plain; charset=utf-8').send(`${lines.join('\n')}\n`);
  });

  app.get(
    '/:repoKey/auth/:scope',
    user,
    async (request: FastifyRequest<{ Params: { repoKey: string; scope: string } }>, reply) => {
      const scope = SCOPE.exec(request.params.scope)?.[1];
      if (!scope) throw new BadRequest(M.invalidScope(request.params.scope));
      const repo = await services.npm.npmRepository(request.params.repoKey);
      const registry = `${await ownAddress(request, services.generalConfig)}/artifactory/api/npm/${repo.key}/`;
      const nerfDart = registry.replace(/^https?:/, '');
      const lines = [
        `@${scope}:registry=${registry}`,
        `${nerfDart}:_auth=${presentedAuth(request)}`,
        `${nerfDart}:email=${await emailOf(services, request.principal.name)}`,
        `${nerfDart}:always-auth=true`,
      ];
      return reply.type('text/plain; charset=utf-8').send(`${lines.join('\n')}\n`);
    },
  );
}
