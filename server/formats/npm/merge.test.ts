import { afterAll, describe, expect, it } from 'vitest';
import { createDocumentMerger, mergeDocumentTexts } from './merge.ts';

/** A package document of `count` versions, each carrying `padding` characters of readme. */
function document(name: string, versions: string[], padding: number, latest = versions.at(-1)!) {
  return JSON.stringify({
    name,
    'dist-tags': { latest },
    versions: Object.fromEntries(
      versions.map((version) => [
        version,
        { name, version, readme: 'x'.repeat(padding), dist: { tarball: `t/${version}.tgz` } },
      ]),
    ),
    time: Object.fromEntries(
      versions.map((v, i) => [v, new Date(Date.UTC(2026, 0, i + 1)).toISOString()]),
    ),
  });
}

const merger = createDocumentMerger();
afterAll(() => merger.close());

describe("merging a virtual repository's npm documents", () => {
  it('merges in a worker thread exactly as in place, for documents of megabytes', async () => {
    const versions = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `1.${from + i}.0`);
    const first = document('big', versions(0, 300), 2000);
    const second = document('big', versions(200, 300), 2000);
    expect(first.length + second.length).toBeGreaterThan(1_000_000);
    const threaded = await merger.merge([first, second]);
    expect(threaded).toEqual(mergeDocumentTexts([first, second]));
    const merged = JSON.parse(threaded.full.join(''));
    expect(threaded.full.length).toBeGreaterThan(1);
    expect(threaded.full.slice(0, -1).every((part) => part.endsWith(','))).toBe(true);
    expect(Object.keys(merged.versions)).toHaveLength(500);
    expect(merged['dist-tags'].latest).toBe('1.499.0');
    expect(JSON.parse(threaded.abbreviated.join('')).versions['1.0.0'].readme).toBeUndefined();
  });

  it('answers several merges at once, each its own, and a broken document as an error', async () => {
    const big = (n: number) => document(`p${n}`, [`${n}.0.0`], 600_000);
    const answers = await Promise.all([1, 2, 3].map((n) => merger.merge([big(n), big(n + 10)])));
    expect(answers.map((a) => JSON.parse(a.full.join('')).name)).toEqual(['p1', 'p2', 'p3']);
    await expect(merger.merge(['{"not json', big(4)])).rejects.toThrow(/JSON/);
    // the thread is still there for the next one
    expect(JSON.parse((await merger.merge([big(5), big(6)])).full.join('')).name).toBe('p5');
  });

  it('merges small documents in place', async () => {
    const small = await merger.merge([document('s', ['1.0.0'], 1), document('s', ['2.0.0'], 1)]);
    expect(Object.keys(JSON.parse(small.full.join('')).versions)).toEqual(['1.0.0', '2.0.0']);
  });
});
