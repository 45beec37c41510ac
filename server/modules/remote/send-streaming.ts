import type { FastifyReply } from 'fastify';
import mime from 'mime';
import { ACTIVE_TYPES, DOWNLOAD_SANDBOX } from '../artifacts/download.ts';
import type { RemoteAnswer } from './service.ts';

/**
 * Answers with a body that is still downloading from the upstream into the cache. The
 * content is not hashed yet, so only the upstream's own checksum headers (verified before
 * the last byte goes out) are passed on; the same safety headers as a stored file.
 */
export function sendStreamingAnswer(
  reply: FastifyReply,
  answer: Extract<RemoteAnswer, { kind: 'streaming' }>,
  path: string,
) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const type = mime.getType(name) ?? 'application/octet-stream';
  reply
    .headers(answer.headers)
    .header('X-Artifactory-Filename', encodeURIComponent(name))
    .header('Content-Security-Policy', DOWNLOAD_SANDBOX)
    .type(type);
  if (answer.headers['x-checksum-sha1'])
    reply.header('ETag', `"${answer.headers['x-checksum-sha1']}"`);
  if (ACTIVE_TYPES.test(type)) {
    reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
  }
  return reply.send(answer.body);
}
