import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { Tx } from '../../modules/artifacts/service.ts';
import { parseDigest } from './names.ts';
import { sha256OfSha512 } from './queries.ts';

/**
 * The filestore's name (the SHA-256 hex) of the content a supported digest names. A `sha512:`
 * digest is known only for content that arrived under it (its blob row records the SHA-512);
 * undefined when no stored content has it. Other algorithms are refused (`UNSUPPORTED`).
 */
export async function contentHex(db: Database | Tx, digest: string): Promise<string | undefined> {
  const { algorithm, hex } = parseDigest(digest);
  return algorithm === 'sha256' ? hex : sha256OfSha512(db, hex);
}

/** The digest of bytes with the algorithm of `like` (a digest a client named), else sha256. */
export function digestOfBytes(bytes: Buffer, like?: string): string {
  const algorithm = like === undefined ? 'sha256' : parseDigest(like).algorithm;
  return `${algorithm}:${createHash(algorithm).update(bytes).digest('hex')}`;
}
