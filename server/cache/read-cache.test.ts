import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReadCache } from './read-cache.ts';

afterEach(() => vi.useRealTimers());

describe('a read cache peeked without waiting', () => {
  it('gives a loaded, fresh value only', async () => {
    vi.useFakeTimers({ now: 0 });
    const cache = createReadCache<string, number>({ ttlMs: 100, maxEntries: 10 });
    let finish: (value: number) => void = () => undefined;
    const loading = cache.get('a', () => new Promise((resolve) => (finish = resolve)));
    expect(cache.peek('a')).toBeUndefined(); // still loading
    finish(1);
    await loading;
    expect(cache.peek('a')).toBe(1);
    vi.advanceTimersByTime(100);
    expect(cache.peek('a')).toBeUndefined(); // expired
  });

  it('gives nothing for a failed load or after a clear', async () => {
    const cache = createReadCache<string, number>({ ttlMs: 1000, maxEntries: 10 });
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow();
    expect(cache.peek('bad')).toBeUndefined();
    await cache.get('good', async () => 2);
    cache.clear();
    expect(cache.peek('good')).toBeUndefined();
  });
});
