import { createHmac, randomBytes } from 'node:crypto';
import { md4 } from './md4.ts';

/**
 * NTLMv2 messages for proxy authentication (MS-NLMP): the client's NEGOTIATE, the proxy's
 * CHALLENGE, the client's AUTHENTICATE. Only NTLMv2 responses are made: LM and NTLMv1 are
 * crackable from a captured exchange, and every NTLM proxy of this century accepts v2.
 */
const SIGNATURE = Buffer.from('NTLMSSP\0', 'latin1');

const FLAG = {
  unicode: 0x1,
  oem: 0x2,
  requestTarget: 0x4,
  ntlm: 0x200,
  alwaysSign: 0x8000,
  extendedSessionSecurity: 0x80000,
  targetInfo: 0x800000,
  bits128: 0x20000000,
  keyExchange: 0x40000000,
  bits56: 0x80000000,
} as const;

const NEGOTIATE_FLAGS =
  FLAG.unicode |
  FLAG.oem |
  FLAG.requestTarget |
  FLAG.ntlm |
  FLAG.alwaysSign |
  FLAG.extendedSessionSecurity |
  FLAG.bits128 |
  FLAG.bits56;

/** The AV pair of the CHALLENGE's target info that carries the server's time. */
const AV_TIMESTAMP = 7;

export interface NtlmChallenge {
  flags: number;
  serverChallenge: Buffer;
  targetInfo: Buffer;
}

export interface NtlmCredentials {
  username: string;
  password: string;
  domain: string;
  workstation: string;
}

/** An NTLM message was not what the exchange expects (a proxy speaking another dialect). */
export class NtlmMessageError extends Error {}

/** The NEGOTIATE message, base64, for `Proxy-Authorization: NTLM ...`. */
export function negotiateMessage(): string {
  const message = Buffer.alloc(32);
  SIGNATURE.copy(message);
  message.writeUInt32LE(1, 8);
  message.writeUInt32LE(NEGOTIATE_FLAGS >>> 0, 12);
  // Domain and workstation are left empty here: they go in the AUTHENTICATE message.
  return message.toString('base64');
}

/** Reads the proxy's CHALLENGE message (base64 from `Proxy-Authenticate: NTLM ...`). */
export function parseChallenge(base64: string): NtlmChallenge {
  const message = Buffer.from(base64, 'base64');
  if (message.length < 32 || !message.subarray(0, 8).equals(SIGNATURE))
    throw new NtlmMessageError('not an NTLM message');
  if (message.readUInt32LE(8) !== 2) throw new NtlmMessageError('not an NTLM challenge');
  const flags = message.readUInt32LE(20);
  let targetInfo = Buffer.alloc(0);
  if (flags & FLAG.targetInfo && message.length >= 48) {
    const length = message.readUInt16LE(40);
    const offset = message.readUInt32LE(44);
    if (offset + length > message.length) throw new NtlmMessageError('a truncated NTLM challenge');
    targetInfo = Buffer.from(message.subarray(offset, offset + length));
  }
  return { flags, serverChallenge: Buffer.from(message.subarray(24, 32)), targetInfo };
}

/** The value of one AV pair of the target info, if present. */
function avPair(targetInfo: Buffer, id: number): Buffer | undefined {
  for (let at = 0; at + 4 <= targetInfo.length;) {
    const pairId = targetInfo.readUInt16LE(at);
    const length = targetInfo.readUInt16LE(at + 2);
    if (pairId === 0) return undefined;
    if (pairId === id) return targetInfo.subarray(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return undefined;
}

const hmacMd5 = (key: Buffer, ...parts: Buffer[]) =>
  parts.reduce((hmac, part) => hmac.update(part), createHmac('md5', key)).digest();

/** NTOWFv2: the key of the user's NTLMv2 responses. */
export function ntlmV2Key(username: string, password: string, domain: string): Buffer {
  const ntHash = md4(Buffer.from(password, 'utf16le'));
  return hmacMd5(ntHash, Buffer.from(username.toUpperCase() + domain, 'utf16le'));
}

/** Windows time: 100 ns intervals since 1601, little-endian. */
function windowsTime(now = Date.now()): Buffer {
  const time = Buffer.alloc(8);
  time.writeBigUInt64LE((BigInt(now) + 11644473600000n) * 10000n);
  return time;
}

/** The NTLMv2 and LMv2 responses to a challenge (MS-NLMP 3.3.2). */
export function ntlmV2Responses(
  challenge: NtlmChallenge,
  key: Buffer,
  clientChallenge: Buffer,
  timestamp: Buffer,
) {
  const blob = Buffer.concat([
    Buffer.from([1, 1, 0, 0, 0, 0, 0, 0]),
    timestamp,
    clientChallenge,
    Buffer.alloc(4),
    challenge.targetInfo,
    Buffer.alloc(4),
  ]);
  const proof = hmacMd5(key, challenge.serverChallenge, blob);
  const lm = Buffer.concat([
    hmacMd5(key, challenge.serverChallenge, clientChallenge),
    clientChallenge,
  ]);
  return { nt: Buffer.concat([proof, blob]), lm };
}

/** The AUTHENTICATE message answering `challenge`, base64. */
export function authenticateMessage(challenge: NtlmChallenge, who: NtlmCredentials): string {
  const serverTime = avPair(challenge.targetInfo, AV_TIMESTAMP);
  const responses = ntlmV2Responses(
    challenge,
    ntlmV2Key(who.username, who.password, who.domain),
    randomBytes(8),
    serverTime ? Buffer.from(serverTime) : windowsTime(),
  );
  // With the server's time in the target info, MS-NLMP asks for an empty LM response.
  const lm = serverTime ? Buffer.alloc(24) : responses.lm;
  const encoding = challenge.flags & FLAG.unicode ? 'utf16le' : 'latin1';
  const fields = [
    lm,
    responses.nt,
    Buffer.from(who.domain, encoding),
    Buffer.from(who.username, encoding),
    Buffer.from(who.workstation, encoding),
    Buffer.alloc(0), // no session key: the tunnel is not signed or sealed by NTLM
  ];
  const header = Buffer.alloc(64);
  SIGNATURE.copy(header);
  header.writeUInt32LE(3, 8);
  let offset = header.length;
  fields.forEach((field, i) => {
    header.writeUInt16LE(field.length, 12 + i * 8);
    header.writeUInt16LE(field.length, 14 + i * 8);
    header.writeUInt32LE(offset, 16 + i * 8);
    offset += field.length;
  });
  const flags = (challenge.flags & NEGOTIATE_FLAGS & ~FLAG.keyExchange) | FLAG.ntlm;
  header.writeUInt32LE(flags >>> 0, 60);
  return Buffer.concat([header, ...fields]).toString('base64');
}
