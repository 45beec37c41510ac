import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditKind, AuditLog } from './audit-log.ts';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes that read, test or look up, though sent with POST: nothing changes, nothing to audit.
 */
const NOT_A_CHANGE =
  /\/(test|testremote|verify|search|forgotpassword)$|\/(artifactsearch|treebrowser|artifactgeneral|archiveViewSource|views|mds)(\/|$)/;

/** By the route's declared URL, first match wins; the order matters (project members). */
const KIND_BY_ROUTE: ReadonlyArray<[RegExp, AuditKind]> = [
  [/\/ui\/auth\/login$|\/-\/v1\/login$|\/-\/user\/:couchUser$|\/mfa\/verify$/, 'sign-in'],
  [/\/ui\/auth\/logout$/, 'sign-out'],
  [/\/projects\/:key\/(users|groups|roles)\b/, 'permission'],
  [/token|apikey/i, 'token'],
  [/permission/i, 'permission'],
  [/group/i, 'group'],
  [/user|password|mfa/i, 'user'],
  // Project admins may change these too, so their routes are not admin-only.
  [/\/repositories(\/|$)|\/projects(\/|$)/, 'configuration'],
];

/**
 * What a request audits, if anything: a sign-in or sign-out; a change to users, groups,
 * permissions or tokens; repositories and projects, and any other change only an admin may make (configuration:
 * repositories, security settings, mail, maintenance, webhooks, buckets, every stored
 * descriptor's documents). Deploys and other artifact work are the request log's.
 */
export function auditKindOf(method: string, url: string, permission: string | undefined) {
  if (!CHANGES.has(method) || NOT_A_CHANGE.test(url)) return undefined;
  const named = KIND_BY_ROUTE.find(([pattern]) => pattern.test(url))?.[1];
  if (named) return named;
  return permission === 'admin' ? 'configuration' : undefined;
}

/** A failed basic sign-in's user name (never the password); anything else is not a name. */
function basicUserName(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

function signInName(request: FastifyRequest): string | undefined {
  const body = request.body as { user?: unknown; name?: unknown } | undefined;
  const name = body && typeof body === 'object' ? (body.user ?? body.name) : undefined;
  return typeof name === 'string' ? name : undefined;
}

const targetOf = (params: unknown) =>
  Object.entries((params ?? {}) as Record<string, string>)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');

/**
 * One place writes the audit log: after each answer, from the route that answered it. A
 * change is logged when it was made or refused (not when the caller was not signed in at
 * all: that is noise the request log holds); a sign-in either way. Wrong basic credentials
 * on any route are a failed sign-in too.
 */
export const auditHook = fp(async (app: FastifyInstance, { auditLog }: { auditLog: AuditLog }) => {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const url = request.routeOptions.url ?? '';
    let kind = auditKindOf(request.method, url, request.routeOptions.config.permission);
    const failedBasic = status === 401 && basicUserName(request) !== undefined;
    if (failedBasic) kind = 'sign-in';
    if (!kind || (status === 401 && kind !== 'sign-in')) return;
    const principal = request.principal;
    const user =
      kind === 'sign-in'
        ? (signInName(request) ?? basicUserName(request) ?? principal?.name ?? '-')
        : (principal?.name ?? '-');
    auditLog.write({
      kind,
      user,
      address: request.ip,
      outcome: status < 400 ? 'ok' : `failed ${status}`,
      action: `${request.method} ${url}`,
      target: failedBasic ? '' : targetOf(request.params),
    });
  });
});
