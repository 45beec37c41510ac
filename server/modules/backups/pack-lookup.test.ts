import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INDEX_MAGIC } from './pack.ts';
import { blobRows } from './metadata-lines.ts';
import { bytesNotInPacks, closeIndexes, holderOf, indexesOf, openIndexes } from './pack-lookup.ts';

const root = mkdtempSync(join(tmpdir(), 'depot-pack-lookup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const digestOf = (n: number) => createHash('sha256').update(`blob ${n}`).digest();

/** An index of the given digests (sorted, offsets and lengths made up: the lookup reads none). */
function writeIndex(pack: string, digests: Buffer[]) {
  const sorted = [...digests].sort(Buffer.compare);
  const entries = sorted.map((digest, i) => {
    const entry = Buffer.alloc(48);
    digest.copy(entry);
    entry.writeBigUInt64BE(BigInt(i * 10), 32);
    entry.writeBigUInt64BE(10n, 40);
    return entry;
  });
  writeFileSync(join(root, `${pack}.idx`), Buffer.concat([INDEX_MAGIC, ...entries]));
}

describe('looking blobs up in earlier packs', () => {
  it('finds exactly the blobs each pack holds, across blocks of the index', async () => {
    // 40,000 entries: three blocks of 16,384, the last one short; one blob in both packs.
    const inFirst = Array.from({ length: 40_000 }, (_, n) => digestOf(2 * n));
    const inSecond = [digestOf(1), digestOf(2 * 39_999), digestOf(5_001)];
    writeIndex('first', inFirst);
    writeIndex('second', inSecond);
    // The backup's blobs: every third of the first's, every odd one up to 12,001 (none held
    // but 1 and 5,001), and the digests past the first's last entry.
    const wanted = new Map<string, number>();
    for (let n = 0; n < 80_000; n += 6) wanted.set(digestOf(n).toString('hex'), n);
    for (let n = 1; n < 12_002; n += 2) wanted.set(digestOf(n).toString('hex'), n);
    const rows = [...wanted.keys()].sort();
    const metadata = join(root, 'metadata.jsonl');
    writeFileSync(
      metadata,
      rows
        .map((sha256) => `{"table":"blobs","at":1,"row":{"sha256":"${sha256}","size":7}}\n`)
        .join('') + '{"table":"nodes","at":1,"row":{}}\n',
    );

    const heldBy = (n: number) =>
      n % 2 === 0 && n < 80_000 ? 'first' : n === 1 || n === 5_001 ? 'second' : undefined;
    const expected = rows.map((sha256) => heldBy(wanted.get(sha256)!));
    const searches = openIndexes(indexesOf(root, ['first', 'second']));
    try {
      const found = rows.map((sha256) => holderOf(searches, Buffer.from(sha256, 'hex')));
      expect(found).toEqual(expected);
    } finally {
      closeIndexes(searches);
    }
    const notHeld = expected.filter((holder) => holder === undefined).length;
    const indexes = indexesOf(root, ['first', 'second']);
    expect(await bytesNotInPacks(blobRows(metadata), indexes, rows.length * 7)).toBe(notHeld * 7);

    // Without a pack nothing is read: the file is not even opened.
    expect(await bytesNotInPacks(blobRows(join(root, 'absent')), [], 21)).toBe(21);
  });

  it('tells apart digests whose first 8 bytes are the same', () => {
    // One prefix, the rest counting up: only the bytes after the eighth differ.
    const sharing = (n: number) => {
      const digest = Buffer.alloc(32, 0xab);
      digest.writeUInt32BE(n, 28);
      return digest;
    };
    writeIndex('shared', [1, 3, 5, 7].map(sharing));
    const searches = openIndexes(indexesOf(root, ['shared']));
    try {
      const found = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => holderOf(searches, sharing(n)));
      expect(found).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => (n % 2 ? 'shared' : undefined)));
    } finally {
      closeIndexes(searches);
    }
  });

  it('refuses a truncated index', async () => {
    writeFileSync(join(root, 'cut.idx'), Buffer.concat([INDEX_MAGIC, Buffer.alloc(47)]));
    const metadata = join(root, 'one.jsonl');
    writeFileSync(
      metadata,
      `{"table":"blobs","at":1,"row":{"sha256":"${digestOf(1).toString('hex')}","size":1}}\n`,
    );
    await expect(bytesNotInPacks(blobRows(metadata), indexesOf(root, ['cut']), 1)).rejects.toThrow(
      /truncated/,
    );
    writeFileSync(join(root, 'other.idx'), Buffer.from('NOTANIDX'));
    expect(() => openIndexes(indexesOf(root, ['first', 'other']))).toThrow(/not a pack index/);
  });
});
