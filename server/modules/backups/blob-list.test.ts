import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobList } from './blob-list.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newList() {
  const dir = mkdtempSync(join(tmpdir(), 'depot-blob-list-'));
  dirs.push(dir);
  const path = join(dir, '.blob-list');
  return { list: new BlobList(path), path };
}

const sha = (n: number) => n.toString(16).padStart(64, '0');
const page = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ sha256: sha(from + i), size: String(from + i) }));

describe("a full backup's list of blobs, read by the pack while the dump adds to it", () => {
  it('hands over each page as it is added, waits when caught up, and ends when told', async () => {
    const { list } = newList();
    const reader = list.rows();
    list.add(page(1, 3));
    expect((await reader.next()).value).toEqual({ sha256: sha(1), size: 1 });
    expect((await reader.next()).value).toEqual({ sha256: sha(2), size: 2 });
    expect((await reader.next()).value).toEqual({ sha256: sha(3), size: 3 });
    // Caught up: the next row comes only once the dump adds one.
    let waiting = true;
    const next = reader.next().then((result) => ((waiting = false), result));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waiting).toBe(true);
    list.add(page(4, 1));
    expect((await next).value).toEqual({ sha256: sha(4), size: 4 });
    list.end();
    expect((await reader.next()).done).toBe(true);
    list.remove();
  });

  it('keeps every row, in order, across many reads, sizes above 32 bits exact', async () => {
    const { list } = newList();
    const big = { sha256: sha(0xfff), size: String(2 ** 40 + 3) };
    for (let from = 0; from < 10_000; from += 1_000) list.add(page(from, 1_000));
    list.add([big]);
    list.end();
    const read = [];
    for await (const row of list.rows()) read.push(row);
    expect(read).toHaveLength(10_001);
    expect(read.slice(0, 10_000).every((row, i) => row.sha256 === sha(i) && row.size === i)).toBe(
      true,
    );
    expect(read[10_000]).toEqual({ sha256: big.sha256, size: 2 ** 40 + 3 });
    list.remove();
  });

  it('fails a waiting reader when the dump fails, instead of leaving it waiting', async () => {
    const { list } = newList();
    const reader = list.rows();
    const next = reader.next();
    list.fail(new Error('the dump failed'));
    await expect(next).rejects.toThrow('the dump failed');
    list.remove();
  });

  it('refuses a row that is not a SHA-256, and removes its file once', () => {
    const { list, path } = newList();
    expect(() => list.add([{ sha256: 'not-a-digest', size: '1' }])).toThrow('misnamed');
    expect(() => list.add([{ sha256: sha(1).toUpperCase().replace('0', 'G'), size: '1' }])).toThrow(
      'misnamed',
    );
    expect(existsSync(path)).toBe(true);
    list.remove();
    list.remove();
    expect(existsSync(path)).toBe(false);
  });
});
