import { describe, expect, it } from 'vitest';
import {
  decoyPasswordHash,
  hashPassword,
  isUsablePasswordHash,
  verifyPassword,
} from './password.ts';

describe('password hashes', () => {
  it('checks a hash it made, and refuses another password', async () => {
    const hash = await hashPassword('correct horse');
    expect(isUsablePasswordHash(hash)).toBe(true);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
  });

  it('makes decoys that are usable hashes no password matches, each its own', async () => {
    const decoy = decoyPasswordHash();
    expect(isUsablePasswordHash(decoy)).toBe(true);
    expect(decoyPasswordHash()).not.toBe(decoy);
    expect(await verifyPassword('', decoy)).toBe(false);
    expect(await verifyPassword('password', decoy)).toBe(false);
  });

  it.each([
    ['another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['a missing key', 'scrypt$32768$8$1$IuYIHHCpfPbmnCRm2LldLw'],
    ['a part too many', `${decoyPasswordHash()}$extra`],
    ['a cost below 2^14', decoyPasswordHash().replace('$32768$', '$8192$')],
    ['a cost not a power of two', decoyPasswordHash().replace('$32768$', '$30000$')],
    ['more memory than a check may take', decoyPasswordHash().replace('$32768$8$', '$65536$8$')],
    ['a block size of 0', decoyPasswordHash().replace('$32768$8$', '$32768$0$')],
    ['a short salt', 'scrypt$32768$8$1$c2FsdA$svOmDrZK8Ss_GG_Ow_rlSQoAc9d_Y9ytizxNMi7cYKE'],
    ['a short key', 'scrypt$32768$8$1$IuYIHHCpfPbmnCRm2LldLw$a2V5'],
    [
      'a salt that is not base64url',
      'scrypt$32768$8$1$IuYIHHCp+PbmnCRm2LldLw$svOmDrZK8Ss_GG_Ow_rlSQoAc9d_Y9ytizxNMi7cYKE',
    ],
    ['a password', 'admin-secret-1'],
  ])('refuses %s', (_, text) => {
    expect(isUsablePasswordHash(text)).toBe(false);
  });
});
