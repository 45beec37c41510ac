import { describe, expect, it } from 'vitest';
import { md4 } from './md4.ts';
import {
  authenticateMessage,
  negotiateMessage,
  ntlmV2Key,
  ntlmV2Responses,
  parseChallenge,
} from './ntlm.ts';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('md4', () => {
  it("answers RFC 1320's test suite", () => {
    const suite: Array<[string, string]> = [
      ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
      ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
      ['message digest', 'd9130a8164549fe818874806e1c7014b'],
      ['1234567890'.repeat(8), 'e33b4ddc9c38f2199c3e7b164fcc0536'],
    ];
    for (const [text, digest] of suite) expect(md4(Buffer.from(text)).toString('hex')).toBe(digest);
  });
});

describe('NTLMv2', () => {
  // MS-NLMP 4.2.4: user "User", domain "Domain", password "Password", time 0.
  const targetInfo = hex(
    '02000c0044006f006d00610069006e00 01000c005300650072007600650072000000 0000'.replace(/ /g, ''),
  );
  const challenge = { flags: 0xe28a8233, serverChallenge: hex('0123456789abcdef'), targetInfo };

  it("computes MS-NLMP's test vectors", () => {
    const key = ntlmV2Key('User', 'Password', 'Domain');
    expect(key.toString('hex')).toBe('0c868a403bfd7a93a3001ef22ef02e3f');
    const responses = ntlmV2Responses(challenge, key, hex('aaaaaaaaaaaaaaaa'), Buffer.alloc(8));
    expect(responses.nt.subarray(0, 16).toString('hex')).toBe('68cd0ab851e51c96aabc927bebef6a1c');
    expect(responses.lm.toString('hex')).toBe('86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa');
  });

  it('reads a challenge and answers it with the user, domain and workstation in Unicode', () => {
    const message = Buffer.alloc(48 + targetInfo.length);
    message.write('NTLMSSP\0', 'latin1');
    message.writeUInt32LE(2, 8);
    message.writeUInt32LE(0xe28a8233, 20);
    hex('0123456789abcdef').copy(message, 24);
    message.writeUInt16LE(targetInfo.length, 40);
    message.writeUInt16LE(targetInfo.length, 42);
    message.writeUInt32LE(48, 44);
    targetInfo.copy(message, 48);
    const parsed = parseChallenge(message.toString('base64'));
    expect(parsed).toEqual(challenge);
    const answer = Buffer.from(
      authenticateMessage(parsed, {
        username: 'User',
        password: 'Password',
        domain: 'Domain',
        workstation: 'COMPUTER',
      }),
      'base64',
    );
    const field = (index: number) => {
      const length = answer.readUInt16LE(12 + index * 8);
      const offset = answer.readUInt32LE(16 + index * 8);
      return answer.subarray(offset, offset + length);
    };
    expect(answer.readUInt32LE(8)).toBe(3);
    expect(field(2).toString('utf16le')).toBe('Domain');
    expect(field(3).toString('utf16le')).toBe('User');
    expect(field(4).toString('utf16le')).toBe('COMPUTER');
    expect(field(1).subarray(16 + 28)).toEqual(Buffer.concat([targetInfo, Buffer.alloc(4)]));
    expect(Buffer.from(negotiateMessage(), 'base64').readUInt32LE(8)).toBe(1);
    expect(() => parseChallenge(Buffer.from('HTTP/1.1').toString('base64'))).toThrow(
      'not an NTLM message',
    );
  });
});
