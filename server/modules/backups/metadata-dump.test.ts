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
});
