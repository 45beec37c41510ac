import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DepotError } from '../../errors.ts';
import { parseRange as parseByteRange } from '../../modules/artifacts/download.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { UpstreamRateLimited } from '../../modules/remote/upstream-error.ts';
import { requestAddress } from '../../modules/general-config/own-address.ts';
import type { RegistryAddress } from './names.ts';
import {
  REGISTRY_CODES,
  RegistryError,
  RegistryUnauthorized,
  registryCodeOf,
} from './protocol-errors.ts';

export const API_VERSION_HEADER = 'Docker-Distribution-API-Version';
const API_VERSION = 'registry/2.0';
const ADDRESS_PREFIX = /^(\/artifactory\/api\/docker\/([^/?]+))\/v2(?:\/|\?|$)/;

/** The address a request reached the registry at, from its URL. */
export function addressOf(url: string): RegistryAddress {
  const match = ADDRESS_PREFIX.exec(url);
  return match ? { prefix: match[1], repoKey: decodeURIComponent(match[2]) } : { prefix: '' };
}

/**
 * `WWW-Authenticate` for a refusal: where to get a token, for which scope. The token realm
 * is at `ownAddress`, the general configuration's base URL when set (behind a proxy, the
 * address clients reach), else the request's own.
 */
export function bearerChallenge(
  request: FastifyRequest,
  scope?: string,
  ownAddress = requestAddress(request),
) {
  const { prefix } = addressOf(request.url);
  const realm = `${ownAddress}${prefix}/v2/token`;
  const quote = (value: string) => value.replace(/["\\]/g, '');
  return `Bearer realm="${quote(realm)}",service="${quote(request.host)}"${scope ? `,scope="${quote(scope)}"` : ''}`;
}

/**
 * Sends an error in the protocol's JSON form; the one place the registry's errors are mapped.
 * `ownAddress` is asked only for a refusal that names the token realm.
 */
export async function sendRegistryError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  ownAddress: () => Promise<string> = async () => requestAddress(request),
) {
  reply.header(API_VERSION_HEADER, API_VERSION);
  let status: number;
  let code: string;
  let message: string;
  let detail: unknown;
  if (error instanceof DepotError) {
    code = registryCodeOf(error);
    status = error.statusCode;
    message = error.message;
    detail = error instanceof RegistryError ? error.detail : undefined;
  } else {
    const statusCode = (error as { statusCode?: number }).statusCode;
    status = statusCode && statusCode >= 400 && statusCode < 500 ? statusCode : 500;
    code = status === 413 ? 'SIZE_INVALID' : status >= 500 ? 'UNKNOWN' : 'UNSUPPORTED';
    message = status >= 500 ? 'The registry failed to answer' : (error as Error).message;
  }
  if (status >= 500) request.log.error({ err: error }, 'registry request failed');
  if (code === 'UNAUTHORIZED') {
    status = REGISTRY_CODES.UNAUTHORIZED;
    reply.header(
      'WWW-Authenticate',
      bearerChallenge(
        request,
        error instanceof RegistryUnauthorized ? error.scope : undefined,
        await ownAddress(),
      ),
    );
  }
  // An upstream's rate limit passed on: the client waits as long as the upstream asked.
  if (error instanceof UpstreamRateLimited && error.retryAfter)
    reply.header('Retry-After', error.retryAfter);
  const size = (detail as { size?: number } | undefined)?.size;
  if (code === 'BLOB_UPLOAD_INVALID' && typeof size === 'number')
    reply.header('Range', size > 0 ? `0-${size - 1}` : '0-0');
  return reply
    .status(status)
    .type('application/json')
    .send(
      JSON.stringify({ errors: [{ code, message, ...(detail !== undefined ? { detail } : {}) }] }),
    );
}

/** `Range: bytes=a-b` of a blob of `size` bytes: one range, or undefined for the whole. */
export function parseRange(header: string | undefined, size: number) {
  const range = parseByteRange(header, size);
  if (range === 'invalid') {
    throw new RegistryError(
      'BLOB_UNKNOWN',
      `The range ${header} is not within the blob's ${size} bytes`,
      undefined,
      416,
    );
  }
  return range;
}

/**
 * Sends a stored blob, whole or a range of it; HEAD sends the headers alone. `whole` is its
 * content when the caller has it in memory already.
 */
export function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  filestore: Filestore,
  blob: { hex: string; size: number; contentType: string; digest?: string; whole?: Buffer },
) {
  // The digest the client asked by (a sha512 one too); the filestore's sha256 otherwise.
  const digest = blob.digest ?? `sha256:${blob.hex}`;
  reply
    .header(API_VERSION_HEADER, API_VERSION)
    .header('Docker-Content-Digest', digest)
    .header('ETag', `"${digest}"`)
    .header('Accept-Ranges', 'bytes')
    .type(blob.contentType);
  const range = parseRange(request.headers.range, blob.size);
  const length = range ? range.end - range.start + 1 : blob.size;
  if (range)
    reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${blob.size}`);
  reply.header('Content-Length', String(length));
  if (request.method === 'HEAD' || length === 0) return reply.send();
  return reply.send(!range && blob.whole ? blob.whole : filestore.read(blob.hex, range));
}

/**
 * Sends a blob a remote repository is still downloading from its upstream: its digest is
 * known (it was asked for by it), and the download breaks off before the last byte when the
 * content turns out not to have it.
 */
export function sendDownloadingBlob(
  reply: FastifyReply,
  blob: { hex: string; body: Readable; headers: Record<string, string>; digest?: string },
) {
  const length = blob.headers['content-length'];
  if (length) reply.header('Content-Length', length);
  return reply
    .header(API_VERSION_HEADER, API_VERSION)
    .header('Docker-Content-Digest', blob.digest ?? `sha256:${blob.hex}`)
    .type('application/octet-stream')
    .send(blob.body);
}

export const registryHeaders = (reply: FastifyReply) =>
  reply.header(API_VERSION_HEADER, API_VERSION);
