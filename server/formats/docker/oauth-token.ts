import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DepotError } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { UsersService } from '../../modules/users/service.ts';
import { addressOf } from './http-answers.ts';
import type { DockerRegistry } from './service.ts';

/** A token request's form is a handful of fields; anything longer is refused unread. */
const FORM_MAX_BYTES = 16 * 1024;

/** An OAuth2 error answer (RFC 6749, 5.2), as Docker's token specification asks for. */
class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type',
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

async function readForm(request: FastifyRequest): Promise<URLSearchParams> {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  if (type !== 'application/x-www-form-urlencoded')
    throw new OAuthError(
      'invalid_request',
      'Send the request as application/x-www-form-urlencoded',
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_MAX_BYTES) throw new OAuthError('invalid_request', 'The request is too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const required = (form: URLSearchParams, name: string) => {
  const value = form.get(name);
  if (!value) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
};

/**
 * Docker's OAuth2 token requests (`POST .../v2/token`, docs/docker.md): `grant_type=password`
 * with `username` and `password` (a Depot token or API key may stand in for it), or
 * `grant_type=refresh_token` with a refresh token Depot issued; `client_id` names the client,
 * `scope` is space-separated, `access_type=offline` asks for a refresh token. The access
 * token answered is the same short-lived registry token the `GET` endpoint issues.
 */
export function oauthTokenHandler(
  app: FastifyInstance,
  registry: DockerRegistry,
  users: UsersService,
) {
  /** Who a refresh token names, as the user is now: gone or locked, it grants nothing. */
  async function refreshedPrincipal(token: string): Promise<Principal> {
    const holder = await registry.tokens.verifyRefresh(token);
    const user = holder && (await users.get(holder.name).catch(() => undefined));
    if (!holder || !user || user.locked)
      throw new OAuthError('invalid_grant', 'The refresh token is invalid or has expired');
    return {
      userId: await users.findId(user.name),
      name: user.name,
      admin: user.admin,
      anonymous: false,
      via: 'token',
      ...(holder.groups ? { groups: holder.groups } : {}),
      expiresAt: holder.expiresAt,
    };
  }

  async function principalOf(form: URLSearchParams, request: FastifyRequest) {
    const grant = required(form, 'grant_type');
    if (grant === 'password') {
      const username = required(form, 'username');
      const password = required(form, 'password');
      return app.principalFromPassword(username, password, request.ip).catch((error: unknown) => {
        if (error instanceof DepotError && error.statusCode === 401)
          throw new OAuthError('invalid_grant', 'Bad credentials');
        throw error;
      });
    }
    if (grant === 'refresh_token') return refreshedPrincipal(required(form, 'refresh_token'));
    throw new OAuthError(
      'unsupported_grant_type',
      `grant_type must be password or refresh_token, not '${grant}'`,
    );
  }

  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      const form = await readForm(request);
      required(form, 'client_id');
      const principal = await principalOf(form, request);
      const scope = form.get('scope') ?? '';
      const service = form.get('service') || request.host;
      const issued = await registry.issueToken(
        principal,
        addressOf(request.url),
        scope ? [scope] : [],
        service,
      );
      const refresh =
        form.get('grant_type') === 'refresh_token'
          ? form.get('refresh_token')
          : form.get('access_type') === 'offline'
            ? await registry.tokens.issueRefresh(principal, service)
            : undefined;
      return reply.send({
        access_token: issued.access_token,
        scope,
        expires_in: issued.expires_in,
        issued_at: issued.issued_at,
        ...(refresh ? { refresh_token: refresh } : {}),
      });
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return reply
        .status(error.status)
        .send({ error: error.error, error_description: error.message });
    }
  };
}
