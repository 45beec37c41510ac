import { useEffect, useId, useRef, type ReactNode } from 'react';
import './dialog.css';

interface DialogProps {
  title: string;
  /** Optional line under the title (the error dialog's "Something went wrong"). */
  subtitle?: string;
  children: ReactNode;
  /** The buttons; the first one gets the focus when the dialog opens. */
  actions: ReactNode;
  onClose: () => void;
  role?: 'dialog' | 'alertdialog';
  /** 'wide' for content that needs room, such as Set Me Up's snippets. */
  size?: 'normal' | 'wide';
}

/**
 * A modal dialog: focus moves into it and returns where it was, Escape closes it, Tab stays
 * inside. Not <dialog>.showModal(), which jsdom lacks, so that tests can render it.
 */
export function Dialog({
  title,
  subtitle,
  children,
  actions,
  onClose,
  role = 'dialog',
  size = 'normal',
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('.dialog-actions button, .dialog-actions a')?.focus();
    return () => previous?.focus?.();
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = panel.current.querySelectorAll<HTMLElement>(
      'button, a[href], input, select, textarea',
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <div className="dialog-backdrop">
      <div
        ref={panel}
        className={size === 'wide' ? 'dialog dialog-wide' : 'dialog'}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {subtitle && <p className="dialog-subtitle">{subtitle}</p>}
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">{actions}</div>
      </div>
    </div>
  );
}
