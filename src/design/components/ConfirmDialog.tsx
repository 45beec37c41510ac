import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  /** A destructive confirmation gets the danger colour. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question; Escape and the cancel button both cancel. */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  cancelLabel,
  danger,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      role="alertdialog"
      onClose={onCancel}
      actions={
        <>
          <button
            type="button"
            className={danger ? 'btn btn-danger' : 'btn btn-primary'}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            {cancelLabel}
          </button>
        </>
      }
    >
      <p>{text}</p>
    </Dialog>
  );
}
