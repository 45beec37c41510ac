import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { acceptedStep, newTotpSecret, otpauthUri } from './totp.ts';

// RFC 6238 appendix B's SHA-1 key "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('matches the RFC 6238 test vectors (last 6 digits of the 8-digit values)', async () => {
    const vectors: Array<[number, string]> = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ];
    for (const [time, code] of vectors) {
      expect(await acceptedStep(RFC_SECRET, code, time), `T=${time}`).toBe(Math.floor(time / 30));
    }
  });

  it('accepts one step of clock drift either way and nothing further', async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_015;
    const codeAt = (t: number) => generate({ secret, epoch: t });
    expect(await acceptedStep(secret, await codeAt(now - 30), now)).toBe(60_000_000 - 1);
    expect(await acceptedStep(secret, await codeAt(now + 30), now)).toBe(60_000_000 + 1);
    expect(await acceptedStep(secret, await codeAt(now - 90), now)).toBeUndefined();
    expect(await acceptedStep(secret, await codeAt(now + 90), now)).toBeUndefined();
  });

  it('refuses anything but six digits', async () => {
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 345', '123456\n']) {
      expect(await acceptedStep(RFC_SECRET, bad, 59)).toBeUndefined();
    }
  });

  it('names the issuer and the user in the otpauth URI', () => {
    const uri = otpauthUri('jo doe', 'ABCDEFGH');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Depot:jo%20doe\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe('ABCDEFGH');
    expect(new URL(uri).searchParams.get('issuer')).toBe('Depot');
  });
});
