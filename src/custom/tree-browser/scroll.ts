/**
 * Scaled scrolling. Browsers cap an element's height (about 32 million px in Chromium, 18
 * million in Firefox), so a million rows of 30 px cannot sit in one native scroll box. The
 * scroll box is at most MAX_SCROLL_PX tall, and its scroll range maps linearly onto the
 * rows' full ("virtual") height: the top of the range shows the first row, the bottom the
 * last. Below the cap the mapping is one to one.
 */
export const MAX_SCROLL_PX = 8_000_000;
/** Rows drawn beyond the viewport on each side, and the most drawn at once (spec 02 §9). */
export const OVERSCAN_ROWS = 10;
export const MAX_RENDERED_ROWS = 100;

export interface Geometry {
  count: number;
  rowHeight: number;
  viewport: number;
}

export const virtualHeight = ({ count, rowHeight }: Geometry) => count * rowHeight;
export const scrollHeight = (g: Geometry) => Math.min(virtualHeight(g), MAX_SCROLL_PX);

/** virtual px per scroll px: 1 below the cap. */
function scale(g: Geometry): number {
  const range = scrollHeight(g) - g.viewport;
  const virtualRange = virtualHeight(g) - g.viewport;
  return range > 0 && virtualRange > range ? virtualRange / range : 1;
}

export const virtualTopOf = (scrollTop: number, g: Geometry) => scrollTop * scale(g);
export const scrollTopOf = (virtualTop: number, g: Geometry) => virtualTop / scale(g);

export interface RowWindow {
  /** The rows to draw, `first` to `last` inclusive. */
  first: number;
  last: number;
  /** Where `first` sits inside the scroll box's content (px from its top). */
  firstTop: number;
}

/** The rows to draw for a virtual position, laid out around the native scroll position. */
export function rowWindow(virtualTop: number, scrollTop: number, g: Geometry): RowWindow {
  if (g.count === 0) return { first: 0, last: -1, firstTop: 0 };
  const top = clampVirtualTop(virtualTop, g);
  const firstVisible = Math.min(g.count - 1, Math.floor(top / g.rowHeight));
  const visible = Math.ceil(g.viewport / g.rowHeight) + 1;
  const first = Math.max(0, firstVisible - OVERSCAN_ROWS);
  const last = Math.min(
    g.count - 1,
    firstVisible + visible + OVERSCAN_ROWS,
    first + MAX_RENDERED_ROWS - 1,
  );
  return { first, last, firstTop: scrollTop + (first * g.rowHeight - top) };
}

export function clampVirtualTop(virtualTop: number, g: Geometry): number {
  return Math.max(0, Math.min(virtualTop, virtualHeight(g) - g.viewport));
}

/** The virtual position that shows row `index` whole, moving as little as possible. */
export function revealRow(index: number, virtualTop: number, g: Geometry): number {
  const rowTop = index * g.rowHeight;
  if (rowTop < virtualTop) return rowTop;
  if (rowTop + g.rowHeight > virtualTop + g.viewport) return rowTop + g.rowHeight - g.viewport;
  return virtualTop;
}
