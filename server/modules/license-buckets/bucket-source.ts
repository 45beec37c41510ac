import { BadRequest } from '../../errors.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { checkBucketKey, verifyBucketFile } from './bucket-file.ts';
import { today, type StoredBucket } from './bucket-counts.ts';
import { fetchBucketFile } from './fetch-bucket-file.ts';
import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

/** What an add brings: a file's bytes, or the URLs and key of one to fetch. */
export type BucketSource =
  { file: Buffer; key?: string } | { url: string; signedUrl: string; key: string };

/**
 * The bucket a source grants and the file's text, once the file is read (fetched through
 * the upstream guard for a URL), verified against the public key and its key checked.
 */
export async function bucketFromSource(
  name: string,
  source: BucketSource,
  options: {
    publicKeyPem: string | undefined;
    allowList: () => Promise<string[]>;
    proxy: () => Promise<OutboundProxy | undefined>;
  },
): Promise<{ bucket: StoredBucket; signedFile: string }> {
  const bytes =
    'file' in source
      ? source.file
      : await fetchBucketFile(source.signedUrl, await options.allowList(), await options.proxy());
  let signedFile: string;
  try {
    signedFile = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BadRequest(M.notJson, 'file');
  }
  const grant = verifyBucketFile(signedFile, options.publicKeyPem, today());
  if (source.key !== undefined) checkBucketKey(grant, source.key);
  const bucket: StoredBucket = {
    identifier: grant.identifier,
    name,
    licenseType: grant.licenseType,
    customerName: grant.customerName,
    issueDate: grant.issueDate,
    expiryDate: grant.expiryDate,
    size: grant.quantity,
    splitOff: 0,
    maxUsed: 0,
    attachments: [],
    ...('url' in source ? { url: source.url } : {}),
  };
  return { bucket, signedFile };
}
