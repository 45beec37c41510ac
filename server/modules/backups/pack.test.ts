import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobPathIn } from '../../storage/filestore.ts';
import type { BlobRow } from './metadata-lines.ts';
import { indexCursor, indexEntries, mergedIndexes, packReader, writePack } from './pack.ts';

const root = mkdtempSync(join(tmpdir(), 'depot-pack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Blob files named by their SHA-256, where the filestore under `root` keeps them. */
function blobs(...contents: Buffer[]): BlobRow[] {
  return contents
    .map((content) => {
      const sha256 = createHash('sha256').update(content).digest('hex');
      mkdirSync(dirname(blobPathIn(root, sha256)), { recursive: true });
      writeFileSync(blobPathIn(root, sha256), content);
      return { sha256, size: content.length };
    })
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
}

async function* each<T>(items: T[]) {
  yield* items;
}

const filesOf = (name: string, earlier: string[] = []) => ({
  packPath: join(root, `${name}.pack`),
  indexPath: join(root, `${name}.idx`),
  filestoreRoot: root,
  earlier: earlier.map((pack) => ({ pack, path: join(root, `${pack}.idx`) })),
});

const pack = (name: string, rows: BlobRow[], earlier: string[] = []) =>
  writePack(filesOf(name, earlier), each(rows), () => undefined);

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
    expect(await pack('one', first)).toEqual({
      count: 4,
      bytes: 3 * 1024 * 1024 + 7,
      usedPacks: [],
    });
    const entries = [];
    for await (const entry of indexEntries(join(root, 'one.idx'), 'one')) entries.push(entry);
    expect(entries.map((entry) => entry.sha256)).toEqual(first.map((blob) => blob.sha256));
    const reader = packReader((name) => join(root, `${name}.pack`));
    try {
      // Buffer.equals: a deep comparison of 3 MiB element by element takes tens of seconds.
      for (const entry of entries) {
        const read = await text(await reader.open(entry));
        expect(read.length).toBe(entry.length);
        expect(read.equals(readFileSync(blobPathIn(root, entry.sha256))), entry.sha256).toBe(true);
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

  it('packs blobs across many batches and a large one byte-identical', async () => {
    // 1,200 blobs of 8 KiB fill the thread's 8 MiB buffer more than once; a sparse file of
    // 70 MiB, copied a chunk at a time, passes the point where a flush to disk starts.
    const small = blobs(
      ...Array.from({ length: 1200 }, (_, i) => Buffer.alloc(8192, `blob ${i} `)),
    );
    const large = 70 * 1024 * 1024;
    const [sparse] = blobs(Buffer.from('placeholder'));
    truncateSync(blobPathIn(root, sparse.sha256), large);
    const rows = [...small, { ...sparse, size: large }].sort((a, b) =>
      a.sha256 < b.sha256 ? -1 : 1,
    );
    const told: number[] = [];
    const report = await writePack(filesOf('many'), each(rows), (count) => told.push(count));
    expect(report).toEqual({ count: 1201, bytes: 1200 * 8192 + large, usedPacks: [] });
    expect(told.at(-1)).toBe(1201);
    expect(told).toEqual([...told].sort((a, b) => a - b));
    const reader = packReader((name) => join(root, `${name}.pack`));
    try {
      let entries = 0;
      for await (const entry of indexEntries(join(root, 'many.idx'), 'many')) {
        expect(entry.sha256).toBe(rows[entries++].sha256);
        if (entries % 97 !== 1 && entry.length !== large) continue;
        const read = await text(await reader.open(entry));
        expect(read.equals(readFileSync(blobPathIn(root, entry.sha256))), entry.sha256).toBe(true);
      }
      expect(entries).toBe(1201);
    } finally {
      await reader.close();
    }
  });

  it('stops when told to, its thread closing the files it wrote', async () => {
    const rows = blobs(...Array.from({ length: 3000 }, (_, i) => Buffer.from(`stop ${i}`)));
    const stopping = new AbortController();
    const written = writePack(
      filesOf('stopped', ['one']),
      (async function* () {
        for (const [i, row] of rows.entries()) {
          if (i === 2000) stopping.abort(new Error('the backup stopped'));
          yield row;
        }
      })(),
      () => undefined,
      stopping.signal,
    );
    await expect(written).rejects.toThrow('the backup stopped');
    const open = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(open.filter((target) => target.startsWith(join(root, 'stopped.')))).toEqual([]);
    expect(open).not.toContain(join(root, 'one.idx'));
  });

  it('passes over the blobs earlier packs hold, naming those packs, and packs the rest', async () => {
    // `one` holds a, b, the large one and the empty one; `two` holds c and a.
    const third = blobs(Buffer.from('a'), Buffer.from('c'), Buffer.from('d'), Buffer.from('e'));
    const sizes = third.map((blob) => blob.size);
    const told: [number, number][] = [];
    const report = await writePack(filesOf('three', ['one', 'two']), each(third), (...done) =>
      told.push(done),
    );
    expect(report).toEqual({ count: 2, bytes: 2, usedPacks: ['one', 'two'] });
    // Every blob is done, packed or passed over.
    expect(told.at(-1)).toEqual([4, sizes.reduce((sum, size) => sum + size, 0)]);
    const packed = [];
    for await (const entry of indexEntries(join(root, 'three.idx'), 'three'))
      packed.push(entry.sha256);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(packed).toEqual([sha('d'), sha('e')].sort());
    // A blob in two earlier packs counts for the first listed.
    const again = await pack('again', blobs(Buffer.from('a')), ['two', 'one']);
    expect(again).toEqual({ count: 0, bytes: 0, usedPacks: ['two'] });
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
