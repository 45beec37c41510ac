import type { ReactNode } from 'react';

/**
 * Text shown as code in a box that scrolls. Focusable and named, so that a keyboard can
 * scroll it and a screen reader says what it is (axe: scrollable-region-focusable).
 */
export function ScrollableCode({
  label,
  className = 'tree-code',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <pre className={className} tabIndex={0} aria-label={label}>
      {children}
    </pre>
  );
}
