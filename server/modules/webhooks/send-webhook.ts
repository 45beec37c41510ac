import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import {
  openOutboundRequest,
  proxyConnectionFailure,
  ProxyFailure,
  proxyRefusal,
} from '../proxies/outbound-request.ts';
import { UnknownProxy, type OutboundProxy } from '../proxies/service.ts';
import { BlockedAddress, isAllowedAddress } from '../remote/upstream-guard.ts';
import { isUpstreamScheme } from '../remote/upstream-url.ts';
import { receiverPool } from './receiver-pools.ts';

/** What one POST to a receiver came to. */
export type SendResult =
  | { kind: 'answered'; status: number; excerpt: string; durationMs: number }
  | {
      kind: 'blocked' | 'unreachable' | 'timeout' | 'redirect';
      error: string;
      durationMs: number;
    };

export interface SendOptions {
  body: string;
  headers: Record<string, string>;
  allowList: string[];
  timeoutMs: number;
  /** The subscription's outbound proxy, read when sending (docs/proxies.md); none: direct. */
  proxy?: () => Promise<OutboundProxy | undefined>;
}

type HopOptions = Omit<SendOptions, 'proxy'> & { proxy?: OutboundProxy };

/** Characters of an answer kept for the delivery history. */
export const EXCERPT_CHARS = 512;
/** Redirects that keep the method and body; others would turn the POST into a GET. */
const BODY_KEEPING_REDIRECTS = new Set([307, 308]);
const MAX_REDIRECTS = 3;

/**
 * POSTs a webhook body to its URL through the upstream address guard: every address the
 * host resolves to is checked when connecting (a private one needs the admin's allow list),
 * and a 307/308 redirect is followed only through the same checks, up to 3 times. Other
 * redirects are not followed. Never throws: the result says what happened.
 */
export async function sendWebhook(url: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let proxy: OutboundProxy | undefined;
  try {
    proxy = await options.proxy?.();
  } catch (error) {
    // A proxy removed behind the subscription's back: the attempt fails, the retries wait for it.
    if (error instanceof UnknownProxy)
      return { kind: 'unreachable', error: error.message, durationMs: elapsed() };
    throw error;
  }
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const result = await postOnce(current, { ...options, proxy }, elapsed);
    if (result.kind !== 'redirect-to') return result;
    if (hop >= MAX_REDIRECTS)
      return {
        kind: 'redirect',
        error: `More than ${MAX_REDIRECTS} redirects`,
        durationMs: elapsed(),
      };
    current = result.location;
  }
}

type HopResult = SendResult | { kind: 'redirect-to'; location: URL };

function postOnce(url: URL, options: HopOptions, elapsed: () => number): Promise<HopResult> {
  const fail = (kind: 'blocked' | 'unreachable' | 'timeout' | 'redirect', error: string) =>
    ({ kind, error, durationMs: elapsed() }) as const;
  if (!isUpstreamScheme(url))
    return Promise.resolve(
      fail('blocked', `Webhook URLs must be http or https, not ${url.protocol}`),
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup, so it is checked here.
  if (isIP(host) && !isAllowedAddress(host, options.allowList))
    return Promise.resolve(fail('blocked', blockedMessage(host)));
  if (!options.proxy) return postDirect(url, options, elapsed);
  return new Promise((resolve) => {
    const failed = (error: Error) => {
      if (error instanceof BlockedAddress) return resolve(fail('blocked', error.message));
      const proxyFailed = proxyConnectionFailure(url, options.proxy, error);
      if (proxyFailed) return resolve(fail('unreachable', proxyFailed.message));
      if (error instanceof ProxyFailure)
        return resolve(fail(error.timedOut ? 'timeout' : 'unreachable', error.message));
      resolve(fail('unreachable', `${url.host} could not be reached: ${error.message}`));
    };
    const init = {
      method: 'POST',
      headers: requestHeaders(options),
      timeoutMs: options.timeoutMs,
      allowList: options.allowList,
      proxy: options.proxy,
    };
    openOutboundRequest(url, init, (request) => {
      request.on('timeout', () => {
        request.destroy();
        resolve(fail('timeout', `No answer within ${options.timeoutMs / 1000} s`));
      });
      request.on('error', failed);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const refused = proxyRefusal(url, options.proxy, status);
        if (refused) {
          response.resume();
          return failed(refused);
        }
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          if (!BODY_KEEPING_REDIRECTS.has(status))
            return resolve(fail('redirect', `Redirected (${status}) to ${location}: not followed`));
          return resolve({ kind: 'redirect-to', location: new URL(location, url) });
        }
        readExcerpt(response).then((excerpt) =>
          resolve({ kind: 'answered', status, excerpt, durationMs: elapsed() }),
        );
      });
      request.end(options.body);
    }).catch(failed);
  });
}

const requestHeaders = (options: HopOptions) => ({
  'user-agent': 'Depot-Webhooks',
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(options.body)),
  ...options.headers,
});

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * A POST straight to the receiver on a kept-alive connection of its pool (receiver-pools.ts),
 * which connects only through the address guard.
 */
async function postDirect(
  url: URL,
  options: HopOptions,
  elapsed: () => number,
): Promise<HopResult> {
  const fail = (kind: 'blocked' | 'unreachable' | 'timeout' | 'redirect', error: string) =>
    ({ kind, error, durationMs: elapsed() }) as const;
  let response: Dispatcher.ResponseData;
  try {
    response = await receiverPool(url.origin, options.allowList, options.timeoutMs).request({
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      headers: requestHeaders(options),
      body: options.body,
    });
  } catch (error) {
    const cause = error as Error & { code?: string };
    if (cause instanceof BlockedAddress) return fail('blocked', cause.message);
    if (TIMEOUT_CODES.has(cause.code ?? ''))
      return fail('timeout', `No answer within ${options.timeoutMs / 1000} s`);
    return fail('unreachable', `${url.host} could not be reached: ${cause.message}`);
  }
  const status = response.statusCode;
  const location = response.headers.location;
  if (status >= 300 && status < 400 && typeof location === 'string') {
    response.body.resume();
    if (!BODY_KEEPING_REDIRECTS.has(status))
      return fail('redirect', `Redirected (${status}) to ${location}: not followed`);
    return { kind: 'redirect-to', location: new URL(location, url) };
  }
  const excerpt = await readExcerpt(response.body);
  return { kind: 'answered', status, excerpt, durationMs: elapsed() };
}

const blockedMessage = (address: string) =>
  `The address ${address} is private or reserved; an admin can allow it in the security settings`;

/** The first characters of an answer; the rest is not read. */
function readExcerpt(response: Readable): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      response.removeAllListeners('data');
      resolve(Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS));
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_CHARS * 4) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}
