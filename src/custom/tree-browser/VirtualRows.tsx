import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import {
  clampVirtualTop,
  revealRow,
  rowWindow,
  scrollHeight,
  scrollTopOf,
  virtualTopOf,
  type Geometry,
} from './scroll';

interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** The row to keep in view; -1 for none. */
  activeIndex: number;
  /** The id of the active row's element, for aria-activedescendant. */
  activeElementId?: string;
  label: string;
  className?: string;
  /** Takes the keyboard when it appears (the main tree, so arrows work at once). */
  autoFocus?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>, visibleRows: number) => void;
  renderRow: (index: number) => ReactNode;
}

/** Until the box is measured (and where nothing measures, as in unit tests). */
const DEFAULT_VIEWPORT = 600;

/**
 * A scroll box that draws only the rows in view, with scaled scrolling past the browsers'
 * height cap (scroll.ts). Rows are laid out absolutely in slots reused as the window moves,
 * so scrolling updates a few dozen elements' text and position, never mounts thousands.
 */
export function VirtualRows({
  count,
  rowHeight,
  activeIndex,
  activeElementId,
  label,
  className,
  autoFocus,
  onKeyDown,
  renderRow,
}: VirtualRowsProps) {
  const box = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(DEFAULT_VIEWPORT);
  const [position, setPosition] = useState({ virtualTop: 0, scrollTop: 0 });
  /** A scroll position this component set itself: its scroll event must not re-derive. */
  const ownScroll = useRef<number | null>(null);
  const geometry: Geometry = { count, rowHeight, viewport };

  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      setViewport(element.clientHeight || DEFAULT_VIEWPORT),
    );
    observer.observe(element);
    setViewport(element.clientHeight || DEFAULT_VIEWPORT);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (autoFocus) box.current?.focus({ preventScroll: true });
  }, [autoFocus]);

  const onScroll = useCallback(() => {
    const element = box.current;
    if (!element) return;
    const scrollTop = element.scrollTop;
    if (ownScroll.current !== null && Math.abs(ownScroll.current - scrollTop) < 1) {
      ownScroll.current = null;
      return;
    }
    ownScroll.current = null;
    setPosition({ virtualTop: virtualTopOf(scrollTop, { count, rowHeight, viewport }), scrollTop });
  }, [count, rowHeight, viewport]);

  // Keep the active row in view (keyboard moves, a walk to a deep link).
  useEffect(() => {
    if (activeIndex < 0 || !box.current) return;
    const g = { count, rowHeight, viewport };
    const virtualTop = revealRow(activeIndex, position.virtualTop, g);
    if (virtualTop === position.virtualTop) return;
    const scrollTop = scrollTopOf(virtualTop, g);
    ownScroll.current = scrollTop;
    box.current.scrollTop = scrollTop;
    setPosition({ virtualTop, scrollTop: box.current.scrollTop });
    // Only a new active row (or a resize) moves the view; scrolling away is the user's choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex, count, rowHeight, viewport]);

  const virtualTop = clampVirtualTop(position.virtualTop, geometry);
  const window = rowWindow(virtualTop, position.scrollTop, geometry);
  const slots: ReactNode[] = [];
  for (let index = window.first; index <= window.last; index++) {
    const top = window.firstTop + (index - window.first) * rowHeight;
    slots.push(
      <div
        key={index % 128}
        className="virtual-row"
        style={{ transform: `translateY(${top}px)`, height: rowHeight }}
        data-index={index}
      >
        {renderRow(index)}
      </div>,
    );
  }

  return (
    <div
      ref={box}
      role="tree"
      aria-label={label}
      aria-activedescendant={activeElementId}
      tabIndex={0}
      className={`virtual-rows ${className ?? ''}`}
      onScroll={onScroll}
      onKeyDown={(event) => onKeyDown?.(event, Math.max(1, Math.floor(viewport / rowHeight)))}
    >
      <div className="virtual-rows-content" style={{ height: scrollHeight(geometry) }}>
        {slots}
      </div>
    </div>
  );
}
