import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
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
 * A modal dialog (React Aria's ModalOverlay, Modal and Dialog): named by its title, focus
 * kept inside and returned where it was, Escape closes it, the page behind is hidden from
 * assistive technology. A click on the backdrop does not close it: a form half filled in
 * is not lost to a stray click.
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
  return (
    <ModalOverlay
      className="dialog-backdrop"
      isOpen
      isDismissable={false}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Modal className={size === 'wide' ? 'dialog dialog-wide' : 'dialog'}>
        <AriaDialog role={role} className="dialog-content">
          <Heading slot="title" level={2} className="dialog-title">
            {title}
          </Heading>
          {subtitle && <p className="dialog-subtitle">{subtitle}</p>}
          <div className="dialog-body">{children}</div>
          <DialogActions>{actions}</DialogActions>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/**
 * The dialog's buttons; the first takes the focus as the dialog opens. Its effect runs before
 * the Dialog's own, which then leaves the focus where it is instead of on the dialog itself.
 */
function DialogActions({ children }: { children: ReactNode }) {
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    row.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
  }, []);
  return (
    <div ref={row} className="dialog-actions">
      {children}
    </div>
  );
}
