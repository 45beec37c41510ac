import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import { onServerFailure } from '../../api/client';
import { Dialog } from '../../design/components/Dialog';
import { ERROR_DIALOG } from '../messages';
import { $errorDialog, describeFailure, errorDialogClosed, serverErrorOccurred } from './model';
import { ErrorContent } from './ErrorContent';

/** "Oops!" for 5xx answers and calls that got no answer, wherever they were made. */
export function ErrorDialog() {
  const [details, close, occurred] = useUnit([
    $errorDialog,
    errorDialogClosed,
    serverErrorOccurred,
  ]);
  useEffect(() => onServerFailure((error) => occurred(describeFailure(error))), [occurred]);
  if (!details) return null;
  return (
    <Dialog
      title={ERROR_DIALOG.header}
      subtitle={ERROR_DIALOG.subheader}
      role="alertdialog"
      onClose={close}
      actions={
        <button type="button" className="btn btn-primary" onClick={close}>
          {ERROR_DIALOG.close}
        </button>
      }
    >
      <ErrorContent details={details} />
    </Dialog>
  );
}
