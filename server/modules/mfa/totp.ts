import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 as authenticator apps use it: SHA-1, 6 digits, 30-second steps. */
const STEP_SECONDS = 30;
/** One step either side, so a phone clock off by up to 30 s still signs in. */
const TOLERANCE_SECONDS = STEP_SECONDS;

export const ISSUER = 'Depot';

/** A new random secret, base32 as authenticator apps expect it (160 bits). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI the QR code carries: the app shows "Depot (name)". */
export function otpauthUri(userName: string, secret: string): string {
  return generateURI({ issuer: ISSUER, label: userName, secret });
}

/**
 * The time step a code belongs to when it is valid now, else undefined. Callers refuse a
 * step at or before the last one accepted, so each code signs in once.
 */
export async function acceptedStep(
  secret: string,
  code: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<number | undefined> {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epoch: nowSeconds,
    epochTolerance: TOLERANCE_SECONDS,
  });
  return result.valid ? Math.floor(nowSeconds / STEP_SECONDS) + result.delta : undefined;
}
