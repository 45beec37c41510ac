import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unionOf } from './delta-positions.ts';
import { readPositions, RowPositions } from './row-positions.ts';

const dir = mkdtempSync(join(tmpdir(), 'depot-delta-positions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The list a union writes to `ids/<table>`, read back. */
async function saved(previous: number[], written: number[]) {
  const union = unionOf(Float64Array.from(previous), written);
  const table = `t${previous.length}-${written.length}`;
  await union.save(dir, table);
  return { count: union.count, list: [...(await readPositions(join(dir, table)))] };
}

describe("a delta's list of row positions from its base's and the rows written since", () => {
  it('merges both in order, a position written again listed once', async () => {
    expect(await saved([1, 5, 9, 12, 2 ** 40], [12, 3, 2 ** 40 + 1, 5])).toEqual({
      count: 7,
      list: [1, 3, 5, 9, 12, 2 ** 40, 2 ** 40 + 1],
    });
    expect(await saved([], [4, 2])).toEqual({ count: 2, list: [2, 4] });
    expect(await saved([7, 8], [])).toEqual({ count: 2, list: [7, 8] });
  });

  it('names the positions that vanished, whether or not the list was written yet', () => {
    const now = new RowPositions();
    for (const position of [9, 3, 1]) now.add(position);
    expect(now.vanishedFrom(Float64Array.from([1, 2, 3, 7, 9]))).toEqual([2, 7]);
  });
});
