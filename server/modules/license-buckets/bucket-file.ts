import {
  createHash,
  createPublicKey,
  sign,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';
import { BadRequest } from '../../errors.ts';
import { canonicalJson } from '../entities/documents.ts';
import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

/** The `format` a bucket file declares (docs/license-buckets.md). */
export const BUCKET_FORMAT = 'depot-license-bucket/1';

/** What a bucket file grants: the signed part of it. */
export interface BucketGrant {
  identifier: string;
  licenseType: string;
  customerName: string;
  /** Days, `YYYY-MM-DD`. */
  issueDate: string;
  expiryDate: string;
  /** How many licenses the bucket holds. */
  quantity: number;
  /** Hex SHA-256 of the bucket's key, when the bucket comes with one (sent apart from it). */
  keySha256?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The reason `grant` is no bucket grant, or undefined when it is one. */
function grantProblem(grant: Record<string, unknown>): string | undefined {
  const text = (name: string) => typeof grant[name] === 'string' && grant[name] !== '';
  if (typeof grant.identifier !== 'string' || !IDENTIFIER.test(grant.identifier))
    return 'its identifier is missing or not made of letters, digits, dots, dashes and underscores';
  for (const name of ['licenseType', 'customerName'])
    if (!text(name)) return `its ${name} is missing`;
  for (const name of ['issueDate', 'expiryDate'])
    if (typeof grant[name] !== 'string' || !DAY.test(grant[name] as string))
      return `its ${name} is not a day (YYYY-MM-DD)`;
  if (!Number.isInteger(grant.quantity) || (grant.quantity as number) < 1)
    return 'its quantity is not a whole number of at least 1';
  if (grant.keySha256 !== undefined && !/^[0-9a-f]{64}$/.test(String(grant.keySha256)))
    return 'its keySha256 is not a hex SHA-256';
  return undefined;
}

/** The bytes a bucket is signed over: its grant as canonical JSON (keys sorted, no spaces). */
export const signedBytes = (grant: BucketGrant) => Buffer.from(canonicalJson(grant), 'utf8');

/** A bucket file for `grant`, signed with an Ed25519 private key (scripts/sign-bucket.ts). */
export function signBucketFile(grant: BucketGrant, privateKey: KeyObject | string): string {
  const signature = sign(null, signedBytes(grant), privateKey).toString('base64');
  return `${JSON.stringify({ format: BUCKET_FORMAT, bucket: grant, signature }, null, 2)}\n`;
}

/**
 * The grant of a bucket file, once its signature is verified with the configured public key
 * and it has not expired on `today` (`YYYY-MM-DD`). Every refusal says what is wrong.
 */
export function verifyBucketFile(
  text: string,
  publicKeyPem: string | undefined,
  today: string,
): BucketGrant {
  if (!publicKeyPem) throw new BadRequest(M.noPublicKey, 'file');
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    throw new BadRequest(M.notJson, 'file');
  }
  const { format, bucket, signature } = (file ?? {}) as Record<string, unknown>;
  if (format !== BUCKET_FORMAT)
    throw new BadRequest(M.notBucket(`its format is not ${BUCKET_FORMAT}`), 'file');
  if (typeof bucket !== 'object' || bucket === null || Array.isArray(bucket))
    throw new BadRequest(M.notBucket('it has no bucket'), 'file');
  const problem = grantProblem(bucket as Record<string, unknown>);
  if (problem) throw new BadRequest(M.notBucket(problem), 'file');
  if (typeof signature !== 'string' || signature === '')
    throw new BadRequest(M.notBucket('it is not signed'), 'file');
  const grant = bucket as BucketGrant;
  const valid = verify(
    null,
    signedBytes(grant),
    createPublicKey(publicKeyPem),
    Buffer.from(signature, 'base64'),
  );
  if (!valid) throw new BadRequest(M.badSignature, 'file');
  if (grant.expiryDate < today) throw new BadRequest(M.expired(grant.expiryDate), 'file');
  return grant;
}

/** Whether `key` is the bucket's key. A bucket fetched by URL needs its key, sent apart. */
export function checkBucketKey(grant: BucketGrant, key: string): void {
  if (grant.keySha256 === undefined) throw new BadRequest(M.keyless, 'key');
  const given = createHash('sha256').update(key, 'utf8').digest();
  if (!timingSafeEqual(given, Buffer.from(grant.keySha256, 'hex')))
    throw new BadRequest(M.keyMismatch, 'key');
}
