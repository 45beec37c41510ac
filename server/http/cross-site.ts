import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Forbidden } from '../errors.ts';

export const CROSS_SITE_MESSAGES = {
  refused:
    'Cross-site request refused: Depot accepts changes only from its own pages and from clients that are not browsers',
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `scheme://host[:port]` as a browser writes it in `Origin` (lower case, no default port). */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The origins Depot's own pages have for this request: the scheme and host it was reached at
 * (X-Forwarded-Proto and X-Forwarded-Host count only from DEPOT_TRUSTED_PROXIES, as
 * everywhere), the same host over https when it was reached over http (a TLS-terminating
 * proxy that is not listed still passes the Host header on), and DEPOT_PUBLIC_URL.
 */
function ownOrigins(request: FastifyRequest, publicOrigin: string | undefined): string[] {
  const own = [originOf(`${request.protocol}://${request.host}`), publicOrigin];
  if (request.protocol === 'http') own.push(originOf(`https://${request.host}`));
  return own.filter((origin): origin is string => origin !== undefined);
}

/**
 * Whether a request was sent by a page of another site. Browsers replay cached basic auth
 * (and would send cookies) with a form another site posts, so the credentials prove
 * nothing about who meant the request; the headers browsers set and pages cannot forge do.
 * `Sec-Fetch-Site` first, where the browser sends it: `same-origin` is Depot's own page
 * (also behind a proxy that rewrites Host), `same-site` and `cross-site` are not (a sibling
 * host is another application). Otherwise `Origin`: `null` (a sandboxed page, a redirect
 * across sites) or any origin but Depot's own is refused. A request with neither header
 * comes from a client that is not a browser: curl, npm, pip, mvn.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = singleHeader(request, 'sec-fetch-site');
  if (site === 'same-origin') return false;
  if (site === 'same-site' || site === 'cross-site') return true;
  const origin = singleHeader(request, 'origin');
  if (origin === undefined) return false;
  const claimed = originOf(origin);
  return claimed === undefined || !ownOrigins(request, publicOrigin).includes(claimed);
}

/**
 * Refuses writes another site's page sends (docs/security.md, "Cross-site requests"),
 * whatever their credentials, before anyone is authenticated. It also takes away Fastify's
 * default `text/plain` body parser: a JSON endpoint then answers a `text/plain`, form or
 * multipart body (the bodies a cross-site form can send) with 415, and the few endpoints
 * whose protocol takes such a body (AQL, deploys, PyPI uploads, token creation by form)
 * bring their own parser and rely on the Origin rule alone.
 */
export const crossSitePlugin = fp<{ publicOrigin: string | undefined }>(
  async (app: FastifyInstance, { publicOrigin }) => {
    app.removeContentTypeParser('text/plain');
    app.addHook('onRequest', async (request) => {
      if (!isCrossSite(request, publicOrigin)) return;
      request.log.info(
        {
          origin: request.headers.origin,
          secFetchSite: request.headers['sec-fetch-site'],
          ownOrigins: ownOrigins(request, publicOrigin),
        },
        'cross-site request refused',
      );
      throw new Forbidden(CROSS_SITE_MESSAGES.refused);
    });
  },
  { name: 'depot-cross-site' },
);
