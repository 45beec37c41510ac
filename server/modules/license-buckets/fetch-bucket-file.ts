import { BadRequest } from '../../errors.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { fetchUpstream, UpstreamFailure } from '../remote/fetch-upstream.ts';
import { BUCKET_FILE_LIMIT, LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

/**
 * The bytes of a bucket file at a signed URL, fetched by the rules every upstream follows
 * (server/modules/remote/upstream-guard.ts: no private or reserved address unless the
 * security settings allow it, redirects checked again). A file over the limit is refused as
 * soon as it is known to be, without reading the rest.
 */
export async function fetchBucketFile(
  url: string,
  allowList: string[],
  proxy?: OutboundProxy,
): Promise<Buffer> {
  let response;
  try {
    response = await fetchUpstream(new URL(url), { allowList, timeoutMs: 15000, proxy });
  } catch (error) {
    if (error instanceof UpstreamFailure)
      throw new BadRequest(M.fetchFailed(error.message), 'signedUrl');
    throw error;
  }
  if ((response.statusCode ?? 0) !== 200) {
    response.resume();
    throw new BadRequest(M.fetchStatus(response.statusCode ?? 0), 'signedUrl');
  }
  if (Number(response.headers['content-length'] ?? 0) >= BUCKET_FILE_LIMIT) {
    response.destroy();
    throw new BadRequest(M.fileTooLarge, 'signedUrl');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size >= BUCKET_FILE_LIMIT) {
      response.destroy();
      throw new BadRequest(M.fileTooLarge, 'signedUrl');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
