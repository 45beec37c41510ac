import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BlobRow } from './metadata-lines.ts';
import { indexCursor, indexEntries, mergedIndexes, packReader, writePack } from './pack.ts';

const root = mkdtempSync(join(tmpdir(), 'depot-pack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Blob files named by their SHA-256, as the filestore keeps them (flat here). */
function blobs(...contents: Buffer[]): BlobRow[] {
  return contents
    .map((content) => {
      const sha256 = createHash('sha256').update(content).digest('hex');
      writeFileSync(join(root, sha256), content);
      return { sha256, size: content.length };
    })
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
}

async function* each<T>(items: T[]) {
  yield* items;
}

const pack = (name: string, rows: BlobRow[]) =>
  writePack(
    join(root, `${name}.pack`),
    join(root, `${name}.idx`),
    each(rows),
    (sha256) => join(root, sha256),
    () => undefined,
  );

const text = async (stream: AsyncIterable<Buffer>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

describe('packs', () => {
  // Small ones read ahead, one of 3 MiB streamed in chunks, one empty.
  const big = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
  const first = blobs(Buffer.from('a'), Buffer.from('b'), big, Buffer.alloc(0));
  const second = blobs(Buffer.from('c'), Buffer.from('a'));

  it('writes blobs in order and reads each back by its index entry', async () => {
    expect(await pack('one', first)).toEqual({ count: 4, bytes: 3 * 1024 * 1024 + 7 });
    const entries = [];
    for await (const entry of indexEntries(join(root, 'one.idx'), 'one')) entries.push(entry);
    expect(entries.map((entry) => entry.sha256)).toEqual(first.map((blob) => blob.sha256));
    const reader = packReader((name) => join(root, `${name}.pack`));
    try {
      // Buffer.equals: a deep comparison of 3 MiB element by element takes tens of seconds.
      for (const entry of entries) {
        const read = await text(await reader.open(entry));
        expect(read.length).toBe(entry.length);
        expect(read.equals(readFileSync(join(root, entry.sha256))), entry.sha256).toBe(true);
      }
    } finally {
      await reader.close();
    }
  });

  it('merges several indexes into one sorted list, a blob in two packs once', async () => {
    await pack('two', second);
    const merged = [];
    for await (const entry of mergedIndexes([
      { path: join(root, 'one.idx'), pack: 'one' },
      { path: join(root, 'two.idx'), pack: 'two' },
    ]))
      merged.push(entry);
    const shas = merged.map((entry) => entry.sha256);
    expect(shas).toEqual([...new Set([...first, ...second].map((b) => b.sha256))].sort());
    const a = createHash('sha256').update('a').digest('hex');
    expect(merged.find((entry) => entry.sha256 === a)?.pack).toBe('one');

    const cursor = indexCursor(mergedIndexes([{ path: join(root, 'two.idx'), pack: 'two' }]));
    const wanted = [...first, ...second].map((b) => b.sha256).sort();
    const found = [];
    for (const sha of [...new Set(wanted)]) if (await cursor.find(sha)) found.push(sha);
    await cursor.close();
    expect(found.sort()).toEqual(second.map((b) => b.sha256).sort());
  });

  it('refuses unsorted blobs, a file of another size, and a truncated index', async () => {
    await expect(pack('unsorted', [...second].reverse())).rejects.toThrow(/sorted/);
    const [wrong] = blobs(Buffer.from('four'));
    await expect(pack('short', [{ ...wrong, size: 5 }])).rejects.toThrow(/is 4 bytes/);
    truncateSync(join(root, 'two.idx'), 8 + 47);
    const read = async () => {
      for await (const _ of indexEntries(join(root, 'two.idx'), 'two'));
    };
    await expect(read()).rejects.toThrow(/truncated/);
  });
});
