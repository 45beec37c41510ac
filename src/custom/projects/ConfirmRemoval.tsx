import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { PROJECT_LABELS as L } from './messages';

/**
 * Asks before removing `subject` (a project, member or role); closed when there is none.
 * Confirming removes it and closes; cancelling only closes.
 */
export function ConfirmRemoval<T>({
  subject,
  title,
  text,
  confirmLabel,
  onRemove,
  onClose,
}: {
  subject: T | null;
  title: string;
  text: (subject: T) => string;
  confirmLabel: string;
  onRemove: (subject: T) => void;
  onClose: () => void;
}) {
  if (subject === null) return null;
  return (
    <ConfirmDialog
      title={title}
      text={text(subject)}
      confirmLabel={confirmLabel}
      cancelLabel={L.cancel}
      danger
      onConfirm={() => {
        onRemove(subject);
        onClose();
      }}
      onCancel={onClose}
    />
  );
}
