import { describe, expect, it } from 'vitest';
import {
  MAX_RENDERED_ROWS,
  MAX_SCROLL_PX,
  revealRow,
  rowWindow,
  scrollHeight,
  scrollTopOf,
  virtualTopOf,
} from './scroll';

const million = { count: 1_000_000, rowHeight: 30, viewport: 600 };
const small = { count: 100, rowHeight: 30, viewport: 600 };

describe('scaled scrolling', () => {
  it('is one to one below the height cap', () => {
    expect(scrollHeight(small)).toBe(3000);
    expect(virtualTopOf(450, small)).toBe(450);
    expect(rowWindow(450, 450, small)).toMatchObject({ first: 5, firstTop: 150 });
  });

  it('keeps a million rows under the cap and reaches the last row at the bottom', () => {
    expect(scrollHeight(million)).toBe(MAX_SCROLL_PX);
    const bottom = MAX_SCROLL_PX - million.viewport;
    const top = virtualTopOf(bottom, million);
    expect(top).toBeCloseTo(million.count * 30 - 600, 3);
    const window = rowWindow(top, bottom, million);
    expect(window.last).toBe(million.count - 1);
    // the last row ends exactly at the viewport's bottom
    const lastTop = window.firstTop + (window.last - window.first) * 30;
    expect(lastTop + 30).toBeCloseTo(bottom + million.viewport, 3);
  });

  it('draws at most the row cap however tall the viewport', () => {
    const tall = { count: 10_000, rowHeight: 26, viewport: 5000 };
    const window = rowWindow(0, 0, tall);
    expect(window.last - window.first + 1).toBeLessThanOrEqual(MAX_RENDERED_ROWS);
  });

  it('reveals a row by moving as little as possible, and maps back to a scroll position', () => {
    expect(revealRow(10, 0, small)).toBe(0);
    expect(revealRow(30, 0, small)).toBe(31 * 30 - 600);
    expect(revealRow(2, 300, small)).toBe(60);
    const top = revealRow(999_999, 0, million);
    expect(scrollTopOf(top, million)).toBeCloseTo(MAX_SCROLL_PX - 600, 3);
  });
});
