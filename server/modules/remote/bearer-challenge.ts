import type { IncomingMessage } from 'node:http';
import { fetchUpstream, type UpstreamOptions } from './fetch-upstream.ts';
import { UpstreamError } from './upstream-error.ts';

/** A token endpoint's answer is small; a huge one is refused rather than held in memory. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;
/** Asked again this long before the upstream said the token expires. */
const EXPIRY_MARGIN_MS = 15_000;
/** What the token specification says a client assumes when `expires_in` is absent. */
const DEFAULT_TOKEN_SECONDS = 60;

export interface BearerChallenge {
  realm: string;
  service?: string;
  scope?: string;
}

/**
 * The parameters of a `WWW-Authenticate: Bearer realm="...",service="...",scope="..."`
 * header (Docker's token authentication specification), or undefined for another scheme.
 */
export function parseBearerChallenge(header: string | undefined): BearerChallenge | undefined {
  const match = /^\s*Bearer\s+(.*)$/i.exec(header ?? '');
  if (!match) return undefined;
  const params: Record<string, string> = {};
  for (const [, name, quoted, bare] of match[1].matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]*))/g))
    params[name.toLowerCase()] = quoted ?? bare;
  if (!params.realm) return undefined;
  return { realm: params.realm, service: params.service, scope: params.scope };
}

async function readToken(response: IncomingMessage): Promise<{ token: string; seconds: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TOKEN_ANSWER_BYTES) {
      response.destroy();
      throw new UpstreamError('The upstream token endpoint answered too much');
    }
    chunks.push(chunk);
  }
  let answer: { token?: unknown; access_token?: unknown; expires_in?: unknown };
  try {
    answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof answer;
  } catch {
    answer = {};
  }
  const token = typeof answer.token === 'string' ? answer.token : answer.access_token;
  if (typeof token !== 'string' || token === '')
    throw new UpstreamError('The upstream token endpoint answered no token');
  const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : DEFAULT_TOKEN_SECONDS;
  return { token, seconds };
}

/**
 * Follows upstream Bearer challenges as registry clients do: the realm named is asked for a
 * token (with the repository's credentials, when it has some, as basic auth), and the
 * request is sent again with it. Tokens are kept per repository, realm and scope until
 * shortly before they expire, so a pull of many layers asks once. Every hop, the realm
 * included, goes through the upstream address guard (`fetchUpstream`).
 */
export function createBearerTokens() {
  const tokens = new Map<string, { token: string; until: number }>();

  const keyOf = (repositoryId: number, challenge: BearerChallenge) =>
    `${repositoryId} ${challenge.realm} ${challenge.service ?? ''} ${challenge.scope ?? ''}`;

  async function obtain(
    repositoryId: number,
    challenge: BearerChallenge,
    options: UpstreamOptions,
  ): Promise<string> {
    const key = keyOf(repositoryId, challenge);
    const kept = tokens.get(key);
    if (kept && kept.until > Date.now()) return kept.token;
    // The realm is the upstream's word: one that is not an address is the upstream's fault (502).
    if (!URL.canParse(challenge.realm))
      throw new UpstreamError('The upstream named a token endpoint that is not a URL');
    const realm = new URL(challenge.realm);
    if (challenge.service) realm.searchParams.set('service', challenge.service);
    if (challenge.scope) realm.searchParams.set('scope', challenge.scope);
    const response = await fetchUpstream(realm, {
      allowList: options.allowList,
      timeoutMs: options.timeoutMs,
      credentials: options.credentials,
      // The token endpoint is reached the way the registry is: through its proxy, if any.
      proxy: options.proxy,
      headers: { accept: 'application/json' },
    });
    if (response.statusCode !== 200) {
      response.resume();
      // Refused credentials are the repository's settings, not an upstream that is away.
      throw new UpstreamError(
        `The upstream's token endpoint (${realm.host}) answered ${response.statusCode}: check the repository's username and password`,
      );
    }
    const { token, seconds } = await readToken(response);
    tokens.set(key, { token, until: Date.now() + seconds * 1000 - EXPIRY_MARGIN_MS });
    return token;
  }

  return {
    /**
     * GETs `url`; a `401` with a Bearer challenge is answered with a token and asked once
     * more. The token goes only to the upstream's origin, never to a host it redirects to.
     */
    async fetch(repositoryId: number, url: URL, options: UpstreamOptions) {
      const response = await fetchUpstream(url, options);
      if (response.statusCode !== 401 || options.body) return response;
      const challenge = parseBearerChallenge(response.headers['www-authenticate']);
      if (!challenge) return response;
      response.resume();
      const token = await obtain(repositoryId, challenge, options);
      return fetchUpstream(url, { ...options, credentials: undefined, bearer: token });
    },
  };
}

export type BearerTokens = ReturnType<typeof createBearerTokens>;
