import type { ReactNode } from 'react';
import './empty-state.css';

interface EmptyStateProps {
  title: string;
  text: string;
  /** A button or link that makes the first item, when the page has no other. */
  action?: ReactNode;
}

/**
 * What a page shows where a list has nothing yet: a picture, what is missing, and how to make
 * the first. Announced as a status, so a screen reader hears why the table is gone.
 */
export function EmptyState({ title, text, action }: EmptyStateProps) {
  return (
    <div className="empty-state" role="status">
      <svg className="empty-state-picture" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <path d="M8 22 32 10l24 12v24L32 58 8 46z" className="empty-state-box" />
        <path d="M8 22l24 12 24-12M32 34v24" className="empty-state-edge" />
      </svg>
      <h2 className="empty-state-title">{title}</h2>
      <p className="empty-state-text">{text}</p>
      {action}
    </div>
  );
}
