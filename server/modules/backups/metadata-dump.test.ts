import { describe, expect, it } from 'vitest';
import { eachCopiedPosition } from './position-scans.ts';

/** What a delta's position scan reads from `COPY (select ctid, flag …)`'s text output. */
function read(text: string) {
  const seen: [number, boolean][] = [];
  eachCopiedPosition(new TextEncoder().encode(text), (position, written) =>
    seen.push([position, written]),
  );
  return seen;
}

/** The same with each row's size (`COPY (select ctid, flag, size …)`). */
function readSized(text: string) {
  const seen: [number, boolean, number][] = [];
  eachCopiedPosition(new TextEncoder().encode(text), (...row) => seen.push(row));
  return seen;
}

describe("a delta's row positions, read from COPY's text", () => {
  it('reads each row position (block × 65536 + offset) and whether it was written since', () => {
    expect(read('(0,1)\tf\n(0,12)\tt\n(70000,65535)\tf\n')).toEqual([
      [1, false],
      [12, true],
      [70000 * 65536 + 65535, false],
    ]);
    expect(read('')).toEqual([]);
  });

  it('refuses text of any other shape rather than reading wrong positions', () => {
    for (const damaged of ['(0,1)\tf', '(0,x)\tf\n', '0,1)\tf\n', '(0,1)f\n', '(0,1'])
      expect(() => read(damaged), damaged).toThrow('damaged');
  });

  it("reads each row's size when the scan asks for it, past 32 bits exact", () => {
    expect(readSized('(0,1)\tf\t10240\n(3,2)\tt\t0\n(4,1)\tf\t6000000000000\n')).toEqual([
      [1, false, 10240],
      [3 * 65536 + 2, true, 0],
      [4 * 65536 + 1, false, 6_000_000_000_000],
    ]);
    expect(readSized('(0,1)\tf\n')).toEqual([[1, false, 0]]);
    for (const damaged of ['(0,1)\tf\t12', '(0,1)\tf\t1x\n', '(0,1)\tf\t\t1\n', '(0,1)\tfx'])
      expect(() => readSized(damaged), damaged).toThrow('damaged');
  });
});
