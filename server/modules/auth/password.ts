import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt is memory-hard: N=2^15, r=8 uses 32 MiB a hash, so guessing at scale is costly.
const PARAMS = { N: 32768, r: 8, p: 1, keyLength: 32 };
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keyLength, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const SALT_LENGTH = 16;

function formatHash(salt: Buffer, key: Buffer): string {
  const { N, r, p } = PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Hashes a password as `scrypt$N$r$p$salt$key` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const { N, r, p, keyLength } = PARAMS;
  return formatHash(salt, await derive(password, salt, { N, r, p }, keyLength));
}

/**
 * A hash no password matches whose check costs what a real one does: a random key under a
 * random salt with the same parameters. Deriving it from a random password would cost a
 * whole scrypt at every start for nothing.
 */
export function decoyPasswordHash(): string {
  return formatHash(randomBytes(SALT_LENGTH), randomBytes(PARAMS.keyLength));
}

/**
 * Whether `text` is a hash this server writes and can check: `scrypt$N$r$p$salt$key` with
 * N a power of two from 2^14, parameters whose memory fits the check's limit, a salt of at
 * least 16 bytes and a key of at least 32 (what `npm run password:hash` prints).
 */
export function isUsablePasswordHash(text: string): boolean {
  const [scheme, n, r, p, saltText, keyText, ...rest] = text.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !saltText || !keyText) return false;
  const [cost, blockSize, parallel] = [n, r, p].map(Number);
  const wholeInRange = (value: number, min: number, max: number) =>
    Number.isInteger(value) && value >= min && value <= max;
  const base64url = /^[A-Za-z0-9_-]+$/;
  return (
    wholeInRange(cost, 2 ** 14, 2 ** 20) &&
    (cost & (cost - 1)) === 0 &&
    wholeInRange(blockSize, 1, 32) &&
    wholeInRange(parallel, 1, 16) &&
    128 * cost * blockSize <= MAX_MEMORY / 2 &&
    base64url.test(saltText) &&
    base64url.test(keyText) &&
    Buffer.from(saltText, 'base64url').length >= SALT_LENGTH &&
    Buffer.from(keyText, 'base64url').length >= PARAMS.keyLength
  );
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(saltText, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}
