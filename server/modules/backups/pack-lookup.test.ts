import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INDEX_MAGIC } from './pack.ts';
import { isHeld, lookUpInPacks } from './pack-lookup.ts';

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
    // 10,000 entries: three blocks of 4,096, the last one short; one blob in both packs.
    const inFirst = Array.from({ length: 10_000 }, (_, n) => digestOf(2 * n));
    const inSecond = [digestOf(1), digestOf(2 * 9_999), digestOf(5_001)];
    writeIndex('first', inFirst);
    writeIndex('second', inSecond);
    // The backup's blobs: every third of the first's, every odd one up to 12,001 (none held
    // but 1 and 5,001), and the digests past the first's last entry.
    const wanted = new Map<string, number>();
    for (let n = 0; n < 20_000; n += 6) wanted.set(digestOf(n).toString('hex'), n);
    for (let n = 1; n < 12_002; n += 2) wanted.set(digestOf(n).toString('hex'), n);
    const rows = [...wanted.keys()].sort();
    const metadata = join(root, 'metadata.jsonl');
    writeFileSync(
      metadata,
      rows
        .map((sha256) => `{"table":"blobs","at":1,"row":{"sha256":"${sha256}","size":7}}\n`)
        .join('') + '{"table":"nodes","at":1,"row":{}}\n',
    );

    const lookup = await lookUpInPacks({ file: metadata }, root, ['first', 'second'], {
      count: rows.length,
      bytes: rows.length * 7,
    });
    const heldBy = (n: number) =>
      n % 2 === 0 && n < 20_000 ? 'first' : n === 1 || n === 5_001 ? 'second' : undefined;
    const expected = rows.map((sha256) => heldBy(wanted.get(sha256)!) !== undefined);
    expect(rows.map((_, row) => isHeld(lookup.held, row))).toEqual(expected);
    const notHeld = expected.filter((held) => !held).length;
    expect(lookup.bytesToPack).toBe(notHeld * 7);
    expect(lookup.usedPacks).toEqual(['first', 'second']);

    // Without a pack nothing is read: the file is not even opened.
    const none = await lookUpInPacks({ file: join(root, 'absent') }, root, [], {
      count: 3,
      bytes: 21,
    });
    expect(none).toEqual({ held: new Uint8Array(1), usedPacks: [], bytesToPack: 21 });
  });

  it('refuses a truncated index', async () => {
    writeFileSync(join(root, 'cut.idx'), Buffer.concat([INDEX_MAGIC, Buffer.alloc(47)]));
    const metadata = join(root, 'one.jsonl');
    writeFileSync(
      metadata,
      `{"table":"blobs","at":1,"row":{"sha256":"${digestOf(1).toString('hex')}","size":1}}\n`,
    );
    await expect(
      lookUpInPacks({ file: metadata }, root, ['cut'], { count: 1, bytes: 1 }),
    ).rejects.toThrow(/truncated/);
  });
});
