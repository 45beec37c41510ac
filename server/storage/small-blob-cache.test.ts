import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SmallBlobCache } from './small-blob-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'depot-small-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `size` bytes of `fill`, named after its key. */
function blob(key: string, size: number, fill = key.charCodeAt(0)) {
  const path = join(dir, key);
  writeFileSync(path, Buffer.alloc(size, fill));
  return path;
}

describe('the small-blob cache', () => {
  it('serves a blob from memory once read, even after its file is gone', async () => {
    const cache = new SmallBlobCache(1024, 4096);
    const path = blob('a', 100);
    expect((await cache.get('a', path)).length).toBe(100);
    unlinkSync(path);
    expect(await cache.get('a', path)).toEqual(Buffer.alloc(100, 'a'.charCodeAt(0)));
  });

  it('reads a blob once for concurrent misses', async () => {
    const cache = new SmallBlobCache(1024, 4096);
    const path = blob('b', 10);
    const [first, second] = await Promise.all([cache.get('b', path), cache.get('b', path)]);
    expect(first).toBe(second);
  });

  it('keeps within its byte budget, dropping the least recently used first', async () => {
    const cache = new SmallBlobCache(1024, 2048);
    const paths = { c: blob('c', 1000), d: blob('d', 1000), e: blob('e', 1000) };
    await cache.get('c', paths.c);
    await cache.get('d', paths.d);
    await cache.get('c', paths.c); // c is now more recent than d
    await cache.get('e', paths.e); // over budget: d goes
    for (const path of Object.values(paths)) unlinkSync(path);
    await expect(cache.get('c', paths.c)).resolves.toHaveLength(1000);
    await expect(cache.get('e', paths.e)).resolves.toHaveLength(1000);
    await expect(cache.get('d', paths.d)).rejects.toThrow(/ENOENT/);
  });

  it('does not keep a blob over its size limit, and forgets a removed one', async () => {
    const cache = new SmallBlobCache(100, 4096);
    const big = blob('f', 101);
    const small = blob('g', 50);
    await cache.get('f', big);
    await cache.get('g', small);
    unlinkSync(big);
    unlinkSync(small);
    await expect(cache.get('f', big)).rejects.toThrow(/ENOENT/);
    await expect(cache.get('g', small)).resolves.toHaveLength(50);
    cache.forget('g');
    await expect(cache.get('g', small)).rejects.toThrow(/ENOENT/);
  });
});
