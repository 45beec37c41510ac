/**
 * MD4 (RFC 1320), for NTLM's NT hash only: Node 20's OpenSSL 3 keeps MD4 in its legacy
 * provider, so `createHash('md4')` throws. MD4 is broken as a digest; NTLM needs it anyway.
 */
const rotl = (x: number, s: number) => (x << s) | (x >>> (32 - s));
const f = (x: number, y: number, z: number) => (x & y) | (~x & z);
const g = (x: number, y: number, z: number) => (x & y) | (x & z) | (y & z);
const h = (x: number, y: number, z: number) => x ^ y ^ z;

const ROUND_2_ORDER = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
const ROUND_3_ORDER = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15];
const SHIFTS = [
  [3, 7, 11, 19],
  [3, 5, 9, 13],
  [3, 9, 11, 15],
];

/** The message padded to a multiple of 64 bytes, its bit length last (little-endian). */
function padded(message: Buffer): Buffer {
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const block = Buffer.alloc(length);
  message.copy(block);
  block[message.length] = 0x80;
  const bits = message.length * 8;
  block.writeUInt32LE(bits >>> 0, length - 8);
  block.writeUInt32LE(Math.floor(bits / 2 ** 32), length - 4);
  return block;
}

export function md4(message: Buffer): Buffer {
  const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  const data = padded(message);
  const x = new Array<number>(16);
  for (let offset = 0; offset < data.length; offset += 64) {
    for (let i = 0; i < 16; i++) x[i] = data.readUInt32LE(offset + i * 4);
    const [a0, b0, c0, d0] = state as [number, number, number, number];
    const v = [a0, b0, c0, d0];
    const rounds: Array<[typeof f, number[], number]> = [
      [f, [...Array(16).keys()], 0],
      [g, ROUND_2_ORDER, 0x5a827999],
      [h, ROUND_3_ORDER, 0x6ed9eba1],
    ];
    rounds.forEach(([fn, order, constant], round) => {
      for (let step = 0; step < 16; step++) {
        // The roles of a, b, c, d rotate each step: [abcd], [dabc], [cdab], [bcda].
        const ia = (16 - step) % 4;
        const [a, b, c, d] = [ia, (ia + 1) % 4, (ia + 2) % 4, (ia + 3) % 4].map((i) => v[i]!);
        const sum = (a! + fn(b!, c!, d!) + x[order[step]!]! + constant) | 0;
        v[ia] = rotl(sum, SHIFTS[round]![step % 4]!);
      }
    });
    for (let i = 0; i < 4; i++) state[i] = (state[i]! + v[i]!) | 0;
  }
  const digest = Buffer.alloc(16);
  state.forEach((word, i) => digest.writeInt32LE(word, i * 4));
  return digest;
}
