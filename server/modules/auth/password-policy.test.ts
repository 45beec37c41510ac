import { describe, expect, it } from 'vitest';
import { DEFAULT_SECURITY_CONFIG } from '../security-config/service.ts';
import { breaksPolicy, passwordAged, policyRules } from './password-policy.ts';

const base = DEFAULT_SECURITY_CONFIG.passwordPolicy;
const strict = {
  ...base,
  minLength: 10,
  uppercase: true,
  lowercase: true,
  digit: true,
  specialChar: true,
};

describe('password policy', () => {
  it('asks only for the length by default', () => {
    expect(breaksPolicy('abcdefgh', base)).toBe(false);
    expect(breaksPolicy('abcdefg', base)).toBe(true);
  });

  it('checks each character class it asks for', () => {
    expect(breaksPolicy('Abcdefgh1!', strict)).toBe(false);
    expect(breaksPolicy('abcdefgh1!', strict)).toBe(true); // no uppercase
    expect(breaksPolicy('ABCDEFGH1!', strict)).toBe(true); // no lowercase
    expect(breaksPolicy('Abcdefghi!', strict)).toBe(true); // no digit
    expect(breaksPolicy('Abcdefghi1', strict)).toBe(true); // no special character
    expect(breaksPolicy('Ab1!', strict)).toBe(true); // too short
    expect(breaksPolicy('Ünïcödé12 ', strict)).toBe(false); // letters beyond ASCII count
  });

  it('counts characters, not UTF-16 units', () => {
    expect(breaksPolicy('😀😀😀😀😀😀😀', base)).toBe(true);
    expect(breaksPolicy('😀😀😀😀😀😀😀😀', base)).toBe(false);
  });

  it('ages a password after the expiry days, never when expiry is off', () => {
    const day = 24 * 3600 * 1000;
    const now = Date.UTC(2026, 10, 23);
    const policy = { ...base, expiryDays: 30 };
    expect(passwordAged(new Date(now - 29 * day), policy, now)).toBe(false);
    expect(passwordAged(new Date(now - 30 * day), policy, now)).toBe(true);
    expect(passwordAged(new Date(now - 3000 * day), base, now)).toBe(false);
  });

  it('lists the rules for the console', () => {
    expect(policyRules(base)).toEqual(['at least 8 characters']);
    expect(policyRules({ ...strict, historySize: 3 })).toEqual([
      'at least 10 characters',
      'an uppercase letter',
      'a lowercase letter',
      'a digit',
      'a special character',
      'none of the last 3 passwords',
    ]);
  });
});
